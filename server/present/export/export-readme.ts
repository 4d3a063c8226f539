/** The README.txt of an export: what each file of the archive holds, and when it was made. */
import type { ChannelRow } from '../../../data/index.js'

const FILES: readonly (readonly [string, string])[] = [
  ['profile.json', 'your profile: a User object'],
  ['posts.json', 'your posts, replies and reposts included, oldest first: Post objects (deleted posts are left out)'],
  ['stars.json', 'the posts you starred that you can still see, oldest star first: Post objects'],
  ['following.json', 'the people you follow, oldest follow first: User objects'],
  ['followers.json', 'the people who follow you, oldest follow first: User objects'],
  ['muted.json', 'the people you muted: User objects'],
  ['blocked.json', 'the people you blocked: User objects'],
  ['channels.json', 'the channels you are subscribed to or own, private conversations included: Channel objects'],
  ['messages/<channel id>.json', 'the messages of each of those channels, oldest first: Message objects (deleted messages are left out)'],
  ['markers.json', 'where you have read to in your streams and channels: Marker objects'],
  ['files.json', 'your files: File objects (their url addresses expire; the bytes are here)'],
  ['files/<file id>-<name>', 'the content of each of your files'],
]

/**
 * The text of the README: whose export this is, from which instance and
 * when, then each file and what it holds. The JSON files are arrays of the
 * objects of the App.net API as this instance serves them, one a line.
 */
export function exportReadme(username: string, baseUrl: string, madeAt: Date, channels: readonly ChannelRow[]): string {
  const width = Math.max(...FILES.map(([name]) => name.length))
  const lines = [
    `The data of @${username} on ${baseUrl}, exported ${madeAt.toISOString()}.`,
    '',
    'Every JSON file is in the shapes of the App.net Stream API as this instance',
    'serves them: the same objects the API answers, as you see them. A list is a',
    'JSON array, one object a line.',
    '',
    ...FILES.map(([name, what]) => `${name.padEnd(width)}  ${what}`),
    '',
    `Channels (${channels.length}):`,
    ...channels.map((c) => `  messages/${c.id}.json  ${c.type}`),
    '',
    'No password, token or two-factor secret is in this archive.',
    '',
  ]
  return lines.join('\n')
}
