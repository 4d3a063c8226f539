/** The frame around every screen: the instance's name, the sections, who is signed in. */
import type { ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import { useSession } from '../auth/session'
import { UnreadAnnouncement, UnreadCount } from '../messages/unread-count'
import { NotificationAnnouncement, NotificationCount } from '../notifications/notification-count'
import { SearchBox } from '../search/search-box'
import { paths } from '../paths'
import { settings, signUpLabel } from '../settings'
import { Avatar } from './avatar'

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation()
  const current = location === href || location.startsWith(`${href}/`)
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const { me, token, signIn, signUp, signOut } = useSession()
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="top">
        <Link href={token ? paths.home : paths.landing} className="brand">
          {settings.name}
        </Link>
        <nav aria-label="Sections">
          {token && <NavLink href={paths.home}>Home</NavLink>}
          {token && (
            <NavLink href={paths.notifications}>
              Notifications
              <NotificationCount />
            </NavLink>
          )}
          {token && (
            <NavLink href={paths.messages}>
              Messages
              <UnreadCount />
            </NavLink>
          )}
          <NavLink href={paths.global}>Global</NavLink>
          <NavLink href={paths.explore}>Explore</NavLink>
        </nav>
        {token && <UnreadAnnouncement />}
        {token && <NotificationAnnouncement />}
        <SearchBox />
        <div className="account">
          {me && (
            <NavLink href={paths.profile(me.username)}>
              <Avatar user={me} size={24} />@{me.username}
            </NavLink>
          )}
          {token && <NavLink href={paths.settings}>Settings</NavLink>}
          {token ? (
            <button type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          ) : (
            <>
              <button type="button" onClick={() => signIn()}>
                Sign in
              </button>
              {signUpLabel(settings) && (
                <button type="button" className="primary" onClick={() => signUp()}>
                  {signUpLabel(settings)}
                </button>
              )}
            </>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  )
}
