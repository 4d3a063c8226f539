/** What a visitor sees first: the instance, how to join, and what people post here. */
import { useSession } from './auth/session'
import { Timeline } from './posts/timeline'
import { settings } from './settings'
import { ErrorLine } from './ui/error-line'

export function Landing() {
  const { signIn, signUp, error } = useSession()
  return (
    <>
      <section className="landing" aria-labelledby="landing-title">
        <h1 id="landing-title">{settings.name}</h1>
        {settings.description && <p className="description">{settings.description}</p>}
        <ErrorLine message={error} />
        <p className="join">
          {settings.open_registration && (
            <button type="button" className="primary" onClick={() => signUp()}>
              Sign up
            </button>
          )}
          <button type="button" onClick={() => signIn()}>
            Sign in
          </button>
        </p>
      </section>
      <Timeline path="/posts/stream/global" title="What people are posting" live={false} />
    </>
  )
}
