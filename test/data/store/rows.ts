/** Rows for store tests and the benchmark: the people and posts of our stories, minimal but valid. */
import type { FollowRow, PostRow, UserRow } from '../../../data/index.js'

const noEntities = () => ({ mentions: [], hashtags: [], links: [] })

export const userRow = (username: string): Omit<UserRow, 'id'> => ({
  username,
  username_key: username.toLowerCase(),
  name: username[0].toUpperCase() + username.slice(1),
  type: username === 'robo' ? 'bot' : 'human',
  locale: 'en_US',
  timezone: 'UTC',
  description: { text: '', entities: noEntities() },
  annotations: [],
  created_at: '2026-01-01T00:00:00Z',
})

export const postRow = (userId: number, text: string, hashtags: string[] = []): Omit<PostRow, 'id'> => ({
  user_id: userId,
  text,
  entities: { ...noEntities(), hashtags: hashtags.map((name) => ({ pos: 0, len: name.length + 1, name })) },
  annotations: [],
  machine_only: false,
  thread_id: 0,
  app_id: 1,
  created_at: '2026-01-01T00:00:00Z',
})

export const followRow = (userId: number, targetId: number): Omit<FollowRow, 'id'> => ({
  user_id: userId,
  target_id: targetId,
  created_at: '2026-01-01T00:00:00Z',
})
