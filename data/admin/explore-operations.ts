/**
 * The admin operations that curate explore streams. They run in the server
 * (through its admin socket) or on a domain the CLI opened itself, so their
 * arguments arrive as plain JSON and are checked here before the service's
 * own rules apply.
 */
import type { Domain } from '../domain/domain.js'
import type { AdminArgs, AdminOperation } from './admin-operation.js'
import { invalid } from '../errors.js'
import type { ExploreRulePatch } from '../explore/explore-rule.js'

type Args = AdminArgs

const text = (args: Args, key: string): string => {
  const value = args[key]
  if (typeof value !== 'string') throw invalid(`${key} is required`)
  return value
}

const optionalText = (args: Args, key: string): string | undefined => (args[key] === undefined ? undefined : text(args, key))

const postId = (args: Args): number => {
  const id = Number(args.post_id)
  if (!Number.isSafeInteger(id) || id < 1) throw invalid('post_id must be a post id')
  return id
}

/** The rule patch of `args`; `user_ids` may name users by id or (@)username. */
async function rule(domain: Domain, args: Args): Promise<ExploreRulePatch | undefined> {
  const value = args.rule
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('rule must be an object')
  const patch = value as ExploreRulePatch & { user_ids?: unknown }
  if (!Array.isArray(patch.user_ids)) return patch
  const ids = await Promise.all(
    patch.user_ids.map(async (ref: unknown) => {
      if (typeof ref === 'number' || (typeof ref === 'string' && /^\d+$/.test(ref))) return Number(ref)
      const user = typeof ref === 'string' ? await domain.users.accounts.byUsername(ref) : null
      if (!user) throw invalid(`no user ${String(ref)}`)
      return user.id
    }),
  )
  return { ...patch, user_ids: ids }
}

export const exploreOperations = {
  /** Every stream, oldest first. */
  'explore.list': async (domain) => domain.explore.list(),
  /** `{slug, title, description, marker?, rule?}` → the new stream; rule `user_ids` may be usernames. */
  'explore.create': async (domain, args) =>
    domain.explore.create({
      slug: text(args, 'slug'),
      title: text(args, 'title'),
      description: text(args, 'description'),
      marker: optionalText(args, 'marker'),
      rule: await rule(domain, args),
    }),
  /** `{slug, new_slug?, title?, description?, marker?, rule?, replace_rule?}` → the changed stream. */
  'explore.update': async (domain, args) =>
    domain.explore.update(text(args, 'slug'), {
      slug: optionalText(args, 'new_slug'),
      title: optionalText(args, 'title'),
      description: optionalText(args, 'description'),
      marker: optionalText(args, 'marker'),
      rule: await rule(domain, args),
      replace_rule: args.replace_rule === true,
    }),
  /** `{slug}` → the deleted stream. */
  'explore.delete': async (domain, args) => domain.explore.remove(text(args, 'slug')),
  /** `{slug, post_id}` → the stream with the post pinned. */
  'explore.pin': async (domain, args) => domain.explore.pin(text(args, 'slug'), postId(args)),
  /** `{slug, post_id}` → the stream without that pin. */
  'explore.unpin': async (domain, args) => domain.explore.unpin(text(args, 'slug'), postId(args)),
} satisfies Record<string, AdminOperation>
