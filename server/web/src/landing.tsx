/** What a visitor sees first: the instance, how to join, and what people post here. */
import { useEffect, useRef, useState } from 'react'
import { takeNotice } from './auth/notice'
import { useSession } from './auth/session'
import { Timeline } from './posts/timeline'
import { joinText, settings, signUpLabel } from './settings'
import { ErrorLine } from './ui/error-line'

export function Landing() {
  const { signIn, signUp, error } = useSession()
  const label = signUpLabel(settings)
  const join = joinText(settings)
  const [notice] = useState(takeNotice)
  // The sign-up page's "Continue" link (server/pages/oauth-pages.ts): the browser is signed in there already, so this comes straight back signed in.
  const continuing = useRef(new URLSearchParams(location.search).has('sign-in'))
  useEffect(() => {
    if (!continuing.current) return
    continuing.current = false
    signIn()
  }, [signIn])
  return (
    <>
      <section className="landing" aria-labelledby="landing-title">
        <h1 id="landing-title">{settings.name}</h1>
        {settings.description && <p className="description">{settings.description}</p>}
        {notice && (
          <p className="status" role="status">
            {notice}
          </p>
        )}
        <ErrorLine message={error} />
        <p className="join">
          {label && (
            <button type="button" className="primary" onClick={() => signUp()}>
              {label}
            </button>
          )}
          <button type="button" onClick={() => signIn()}>
            Sign in
          </button>
        </p>
        {join && <p className="join-text">{join}</p>}
      </section>
      <Timeline path="/posts/stream/global" title="What people are posting" live={false} />
    </>
  )
}
