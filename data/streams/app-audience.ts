/**
 * Which users authorized an app, with what scopes: the users an app stream
 * may show private activity of (the Visibility column of the spec's app
 * stream table) and the filter variable `$authorized_userids`. Kept per app
 * in memory, read once from the app's tokens and read again after any of
 * its token events.
 */
import type { DomainEvent } from '../model/event.js'
import { aclLevel, atLeast, isPublicChannel, namedMembers, PM_TYPE } from '../channels/channel-acl.js'
import type { ChannelRow } from '../model/channel.js'
import type { Readers } from '../store/port.js'
import type { AppVisibility } from './app-stream-events.js'

interface Authorized {
  scopes: Map<number, Set<string>>
  ids: ReadonlySet<string>
}

const TOKEN_EVENTS: ReadonlySet<string> = new Set(['token.authorized', 'token.scopes_changed', 'token.deauthorized'])

/**
 * May an app whose users granted it `scopes` see `channel`? A public channel
 * through anyone who gave it a messaging scope; any other, as REST decides
 * for an app token, through a member the ACLs name who gave it `messages`.
 * With `userId`, that user's own activity there: they read the channel and
 * gave the app a scope that reaches it.
 */
function seesChannel(scopes: ReadonlyMap<number, ReadonlySet<string>>, channel: ChannelRow, userId?: number): boolean {
  const reaches = (granted: ReadonlySet<string> | undefined): boolean =>
    granted !== undefined && (granted.has('messages') || (granted.has('public_messages') && isPublicChannel(channel) && channel.type !== PM_TYPE))
  if (userId !== undefined) return atLeast(aclLevel(channel, userId), 'read') && reaches(scopes.get(userId))
  if (isPublicChannel(channel)) for (const granted of scopes.values()) if (granted.has('messages') || granted.has('public_messages')) return true
  return namedMembers(channel).some((id) => scopes.get(id)?.has('messages') === true)
}

export class AppAudiences {
  private readonly byApp = new Map<number, Promise<Authorized>>()

  constructor(private readonly read: Readers) {}

  /** Forgets what a token event changes; call with every event, in order, before asking about later ones. */
  saw(event: DomainEvent): void {
    if (TOKEN_EVENTS.has(event.name)) this.byApp.delete((event as DomainEvent<'token.authorized'>).payload.token.app_id)
  }

  /** The ids (as strings) of the users who authorized `appId`. */
  async authorizedIds(appId: number): Promise<ReadonlySet<string>> {
    return (await this.of(appId)).ids
  }

  /** May an app stream of `appId` show an item of this visibility? */
  async allows(appId: number, visibility: AppVisibility): Promise<boolean> {
    switch (visibility.rule) {
      case 'public':
        return true
      case 'app':
        return visibility.appId === appId
      case 'authorized':
        return (await this.of(appId)).scopes.has(visibility.userId)
      case 'scoped': {
        const scopes = (await this.of(appId)).scopes.get(visibility.userId)
        return scopes !== undefined && visibility.scopes.some((s) => scopes.has(s))
      }
      case 'channel': {
        // Decided at delivery: access lost since the event (an ACL change) hides it, as REST would.
        const now = await this.read.channels.get(visibility.channel.id)
        if (!now) return false
        const { scopes } = await this.of(appId)
        return seesChannel(scopes, visibility.channel, visibility.userId) && seesChannel(scopes, now, visibility.userId)
      }
    }
  }

  private of(appId: number): Promise<Authorized> {
    let entry = this.byApp.get(appId)
    if (!entry) {
      entry = this.load(appId)
      this.byApp.set(appId, entry)
      entry.catch(() => this.byApp.delete(appId))
    }
    return entry
  }

  private async load(appId: number): Promise<Authorized> {
    const tokens = await this.read.tokens.getMany(await this.read.tokens.ids('app', appId, { limit: Number.MAX_SAFE_INTEGER }))
    const scopes = new Map<number, Set<string>>()
    for (const token of tokens) {
      if (token.user_id === undefined) continue
      const set = scopes.get(token.user_id) ?? new Set<string>()
      for (const s of token.scopes) set.add(s)
      scopes.set(token.user_id, set)
    }
    return { scopes, ids: new Set([...scopes.keys()].map(String)) }
  }
}
