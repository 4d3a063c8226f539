/** `/people/:username`: who they are, what the reader can do about them, and their posts. */
import { Link } from 'wouter'
import type { User } from '../../../api'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { Timeline } from '../posts/timeline'
import { ProfileHeader } from './profile-header'
import { RelationButtons } from './relation-buttons'
import { ReportButton } from '../moderation/report-button'
import { MessageButton } from './message-button'
import { useUser } from './use-user'

/** What a failed read of a person shows: a plain "no such person" for the API's 404, its message otherwise. */
export function UserTrouble({ username, missing, error }: { username: string; missing: boolean; error: string | null }) {
  if (missing)
    return (
      <section>
        <h1>No such person</h1>
        <p role="alert">There is nobody called @{username} here.</p>
      </section>
    )
  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    )
  return <p className="loading">Loading…</p>
}

export function Profile({ username }: { username: string }) {
  const { me, token } = useSession()
  const { user, error, missing, setUser } = useUser(username)
  if (!user) return <UserTrouble username={username} missing={missing} error={error} />
  const mine = me?.id === user.id
  return (
    <>
      <ProfileHeader user={user}>
        {mine && (
          <p>
            <Link href={paths.settings}>Edit your profile</Link>
          </p>
        )}
        {token && me && !mine && <RelationButtons user={user} onChange={setUser} />}
        {token && me && !mine && <MessageButton user={user} meId={me.id} />}
        {token && me && !mine && (
          <ReportButton path={`/users/${user.id}/report`} what="account" username={user.username} mutes onReported={(answer) => setUser(answer as User)} />
        )}
      </ProfileHeader>
      <Timeline
        path={`/users/${user.id}/posts`}
        title={`Posts by @${user.username}`}
        live={false}
        level={2}
        empty={user.you_blocked ? 'You blocked this person.' : 'No posts yet.'}
      />
    </>
  )
}
