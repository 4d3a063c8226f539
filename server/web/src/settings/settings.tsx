/** `/settings`: the signed-in person's profile and images; every change is read back into the session. */
import { Link } from 'wouter'
import type { User } from '../../../api'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { ImageUpload } from './image-upload'
import { ProfileForm } from './profile-form'
import { TwoFactorSettings } from './two-factor'
import { YourData } from './your-data'
import { EmailSettings } from './email-settings'
import { AccountControl } from './account-control'

export function Settings() {
  const { me, refreshMe } = useSession()
  if (!me) return <p className="loading">Loading…</p>
  // The answer is shown through `me`, read again so every screen sees the change.
  const changed = (_user: User) => void refreshMe().catch(() => undefined)
  return (
    <section aria-labelledby="settings-title" className="settings">
      <h1 id="settings-title">Settings</h1>
      <p>
        <Link href={paths.profile(me.username)}>See your profile</Link>
      </p>
      <h2>Profile</h2>
      <ProfileForm key={me.id} user={me} onSaved={changed} />
      <h2>Images</h2>
      <ImageUpload kind="avatar" user={me} onUploaded={changed} />
      <ImageUpload kind="cover" user={me} onUploaded={changed} />
      <TwoFactorSettings />
      <YourData />
      <EmailSettings />
      <AccountControl username={me.username} />
    </section>
  )
}
