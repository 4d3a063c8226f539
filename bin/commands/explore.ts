/**
 * `svc explore list|create|update|delete|pin|unpin`: curate the explore
 * streams. Each subcommand is one admin operation (`explore.*`), run through
 * the server that holds the data dir, or on the data dir directly.
 */
import type { Command } from 'commander'
import type { CuratedStream, ExploreRule } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import type { RunOperation } from './run-operation.js'

interface RuleFlags {
  photo?: boolean
  place?: boolean
  replies?: boolean
  threadRoot?: boolean
  notDirected?: boolean
  minStars?: string | false
  starWindowHours?: string | false
  hashtag?: string | false
  user?: string[] | false
}

interface StreamFlags extends RuleFlags, AdminFlags {
  title?: string
  description?: string
  marker?: string
  slug?: string
  clearRule?: boolean
}

const whole = (flag: string, value: string): number => {
  if (!/^\d{1,9}$/.test(value)) throw new Error(`${flag} must be a whole number`)
  return Number(value)
}

/** The rule criteria the flags set (`true`/value) or clear (`--no-...`: null). */
function ruleOf(f: RuleFlags): Record<string, unknown> {
  const rule: Record<string, unknown> = {}
  const set = (key: keyof ExploreRule, value: unknown) => {
    if (value !== undefined) rule[key] = value === false ? null : value
  }
  set('has_photo', f.photo)
  set('has_place', f.place)
  set('has_replies', f.replies)
  set('is_thread_root', f.threadRoot)
  set('not_directed', f.notDirected)
  set('min_stars', typeof f.minStars === 'string' ? whole('--min-stars', f.minStars) : f.minStars)
  set('star_window_hours', typeof f.starWindowHours === 'string' ? whole('--star-window-hours', f.starWindowHours) : f.starWindowHours)
  set('hashtag', f.hashtag)
  // Users are given by id or @username; the operation resolves names.
  set('user_ids', f.user)
  return rule
}

const describeRule = (rule: CuratedStream['rule']): string => {
  const parts = Object.entries(rule).map(([k, v]) => (v === true ? k : `${k}=${Array.isArray(v) ? v.join(',') : v}`))
  return parts.length > 0 ? parts.join(' ') : 'every public post'
}

const describe = (s: CuratedStream): string =>
  `${s.slug}\t${s.title}\tmarker explore:${s.marker}\t${describeRule(s.rule)}\tpinned ${s.pinned.length > 0 ? s.pinned.join(',') : 'none'}`

const ruleOptions = (cmd: Command): Command =>
  cmd
    .option('--photo', 'only posts with a photo (oEmbed photo or attached image)')
    .option('--no-photo', 'drop the photo criterion')
    .option('--place', 'only posts with a checkin or a geolocation')
    .option('--no-place', 'drop the place criterion')
    .option('--replies', 'only posts with replies')
    .option('--no-replies', 'drop the replies criterion')
    .option('--thread-root', 'only posts that start a thread')
    .option('--no-thread-root', 'drop the thread-root criterion')
    .option('--not-directed', 'only posts not directed at a user')
    .option('--no-not-directed', 'drop the not-directed criterion')
    .option('--min-stars <n>', 'only posts starred at least n times recently')
    .option('--no-min-stars', 'drop the stars criterion')
    .option('--star-window-hours <h>', 'how recent those stars must be (default 24)')
    .option('--no-star-window-hours', 'back to the default window')
    .option('--hashtag <tag>', 'only posts with this hashtag')
    .option('--no-hashtag', 'drop the hashtag criterion')
    .option('--user <id-or-@name...>', 'only posts by these users')
    .option('--no-user', 'drop the users criterion')

export function exploreCommand(program: Command, io: Io, run: RunOperation): void {
  const explore = program.command('explore').description('curate explore streams')

  adminSubcommand(explore, 'list', 'list the explore streams, oldest first').action(async (opts: AdminFlags) => {
    const streams = await run(opts, 'explore.list', {})
    printResult(io, opts, streams, () => streams.map(describe).join('\n'))
  })

  ruleOptions(adminSubcommand(explore, 'create <slug>', 'define an explore stream'))
    .requiredOption('--title <title>', 'title shown to clients')
    .requiredOption('--description <text>', 'description shown to clients')
    .option('--marker <name>', 'marker name suffix (explore:<name>); default the slug')
    .action(async (slug: string, opts: StreamFlags) => {
      const stream = await run(opts, 'explore.create', {
        slug,
        title: opts.title,
        description: opts.description,
        marker: opts.marker,
        rule: ruleOf(opts),
      })
      printResult(io, opts, stream, () => `created ${describe(stream)}`)
    })

  ruleOptions(adminSubcommand(explore, 'update <slug>', "change a stream's slug, texts, marker or rule"))
    .option('--slug <new>', 'new slug')
    .option('--title <title>', 'new title')
    .option('--description <text>', 'new description')
    .option('--marker <name>', 'new marker name suffix')
    .option('--clear-rule', 'start from an empty rule before applying the rule flags')
    .action(async (slug: string, opts: StreamFlags) => {
      const args = {
        slug,
        new_slug: opts.slug,
        title: opts.title,
        description: opts.description,
        marker: opts.marker,
        rule: ruleOf(opts),
        replace_rule: opts.clearRule === true,
      }
      const stream = await run(opts, 'explore.update', args)
      printResult(io, opts, stream, () => `updated ${describe(stream)}`)
    })

  adminSubcommand(explore, 'delete <slug>', 'delete an explore stream').action(async (slug: string, opts: AdminFlags) => {
    const stream = await run(opts, 'explore.delete', { slug })
    printResult(io, opts, stream, () => `deleted ${stream.slug}`)
  })

  for (const [name, verb] of [
    ['pin', 'pinned'],
    ['unpin', 'unpinned'],
  ] as const) {
    adminSubcommand(explore, `${name} <slug> <post_id>`, `${name} a post ${name === 'pin' ? 'to' : 'from'} a stream`).action(
      async (slug: string, postId: string, opts: AdminFlags) => {
        const stream = await run(opts, `explore.${name}`, { slug, post_id: whole('post_id', postId) })
        printResult(io, opts, stream, () => `${verb} post ${postId} in ${describe(stream)}`)
      },
    )
  }
}
