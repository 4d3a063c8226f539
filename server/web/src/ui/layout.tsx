/**
 * The frame around every screen: a top bar with the instance's name and the
 * account, and the sections as icons with labels, a side rail on wide screens
 * and a bottom bar on phones (styles.css moves the same list; on phones the
 * labels hide but stay the links' names, and the secondary entries move to a
 * "More" menu).
 */
import type { ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import { Bell, Compass, Globe, House, LogOut, Mail, Settings as SettingsIcon } from 'lucide-react'
import type { User } from '../../../api'
import { useSession } from '../auth/session'
import { UnreadAnnouncement, UnreadCount } from '../messages/unread-count'
import { NotificationAnnouncement, NotificationCount } from '../notifications/notification-count'
import { SearchBox } from '../search/search-box'
import { paths } from '../paths'
import { settings, signUpLabel } from '../settings'
import { Avatar } from './avatar'
import { MoreSections } from './more-sections'

export interface Section {
  href: string
  label: string
  /** An icon (lucide's are hidden from assistive technology: the label names the link). */
  icon: ReactNode
  /** Other addresses under this entry (it shows as current there too). */
  also?: readonly string[]
  /** A count beside the label, part of the link's name (it says what it counts). */
  badge?: ReactNode
  /** Rail only: on a phone it goes to the "More" menu. */
  secondary?: boolean
}

const isAt = (location: string, href: string) => location === href || location.startsWith(`${href}/`)

function sectionsFor(signedIn: boolean, me: User | null): Section[] {
  const everyone: Section[] = [{ href: paths.explore, label: 'Explore', icon: <Compass /> }]
  if (!signedIn) return [...everyone, { href: paths.global, label: 'Global', icon: <Globe /> }]
  return [
    { href: paths.home, label: 'Home', icon: <House /> },
    // One view of mentions and interactions (their own addresses stay, reached from it).
    { href: paths.notifications, label: 'Notifications', icon: <Bell />, also: [paths.mentions, paths.interactions], badge: <NotificationCount /> },
    { href: paths.messages, label: 'Messages', icon: <Mail />, badge: <UnreadCount /> },
    ...everyone,
    ...(me ? [{ href: paths.profile(me.username), label: 'Profile', icon: <Avatar user={me} size={24} /> }] : []),
    { href: paths.global, label: 'Global', icon: <Globe />, secondary: true },
    { href: paths.settings, label: 'Settings', icon: <SettingsIcon />, secondary: true },
  ]
}

function NavEntry({ section }: { section: Section }) {
  const [location] = useLocation()
  const current = [section.href, ...(section.also ?? [])].some((href) => isAt(location, href))
  return (
    <li className={section.secondary ? 'secondary' : undefined}>
      <Link href={section.href} aria-current={current ? 'page' : undefined}>
        {section.icon}
        <span className="label">{section.label}</span>
        {section.badge}
      </Link>
    </li>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const { me, token, signIn, signUp, signOut } = useSession()
  const sections = sectionsFor(Boolean(token), me)
  const signedOut = !token
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className={signedOut ? 'top signed-out' : 'top'}>
        <Link href={token ? paths.home : paths.landing} className="brand">
          {settings.name}
        </Link>
        {signedOut && settings.description && <p className="tagline">{settings.description}</p>}
        <nav aria-label="Sections" className="sections">
          <ul>
            {sections.map((section) => (
              <NavEntry key={section.label} section={section} />
            ))}
          </ul>
          {sections.some((s) => s.secondary) && <MoreSections sections={sections.filter((s) => s.secondary)} />}
        </nav>
        {token && <UnreadAnnouncement />}
        {token && <NotificationAnnouncement />}
        <SearchBox />
        <div className="account">
          {token ? (
            <button type="button" className="sign-out" onClick={() => void signOut()}>
              <LogOut />
              <span className="label">Sign out</span>
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
      <main id="main" tabIndex={-1} className={signedOut ? 'signed-out' : undefined}>
        {children}
      </main>
    </>
  )
}
