/**
 * A tiny user directory for the text pipeline's tests: alice, bob, carol,
 * robo the bot, and two real users of the original API's recorded examples.
 */
import type { TextOptions, UserRow } from '../../../data/index.js'

const person = (id: number, username: string): UserRow => ({
  id,
  username,
  username_key: username.toLowerCase(),
  name: username,
  type: username === 'robo' ? 'bot' : 'human',
  locale: 'en_US',
  timezone: 'UTC',
  description: { text: '', entities: { mentions: [], hashtags: [], links: [] } },
  annotations: [],
  created_at: '2026-01-01T00:00:00Z',
})

export const people: UserRow[] = [person(1, 'alice'), person(2, 'bob'), person(3, 'voidfiles'), person(4, 'stevestreza'), person(5, 'carol'), person(6, 'robo')]

export const findUser = async (username: string): Promise<UserRow | null> => people.find((p) => p.username_key === username.toLowerCase()) ?? null
export const findUserById = async (id: number): Promise<UserRow | null> => people.find((p) => p.id === id) ?? null

/** Options for a post: 256 characters, mentions of the people above. */
export const postOptions = (extra: Partial<TextOptions> = {}): TextOptions => ({ maxLength: 256, findUser, findUserById, ...extra })
