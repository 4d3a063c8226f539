/**
 * The client's own addresses. The server answers the page at each of these
 * sections' paths (server/routes/web/web-client.ts keeps the same list).
 */
export const paths = {
  landing: '/',
  home: '/home',
  mentions: '/mentions',
  global: '/global',
  explore: '/explore',
  exploreStream: (slug: string) => `/explore/${encodeURIComponent(slug)}`,
  hashtag: (tag: string) => `/explore/tag/${encodeURIComponent(tag)}`,
  interactions: '/interactions',
  notifications: '/notifications',
  search: (q: string) => `/search?q=${encodeURIComponent(q)}`,
  messages: '/messages',
  /** A new message to `username`, with the recipient filled in. */
  messageTo: (username: string) => `/messages?to=${encodeURIComponent(username)}`,
  conversation: (channelId: string) => `/messages/${encodeURIComponent(channelId)}`,
  profile: (username: string) => `/people/${encodeURIComponent(username)}`,
  followers: (username: string) => `/people/${encodeURIComponent(username)}/followers`,
  following: (username: string) => `/people/${encodeURIComponent(username)}/following`,
  post: (id: string) => `/thread/${encodeURIComponent(id)}`,
  settings: '/settings',
} as const
