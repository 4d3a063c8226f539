/** The client's screens by address. Signed-out visitors reach what an anonymous API call may read. */
import type { ReactNode } from 'react'
import { Redirect, Route, Switch } from 'wouter'
import { useSession } from './auth/session'
import { Explore, ExploreStreamPosts } from './explore/explore'
import { Landing } from './landing'
import { Conversation } from './messages/conversation'
import { Inbox } from './messages/inbox'
import { Global, Hashtag, Home, Mentions } from './posts/home'
import { Thread } from './posts/thread'
import { Layout } from './ui/layout'
import { Interactions } from './interactions/interactions'
import { NotificationsView } from './notifications/notifications'
import { NotFound } from './search/not-found'
import { Search } from './search/search'
import { Settings } from './settings/settings'
import { FollowPeople } from './users/follow-lists'
import { Profile } from './users/profile'

function SignedIn({ children }: { children: ReactNode }) {
  const { token } = useSession()
  return token ? <>{children}</> : <Redirect to="/" />
}

export function App() {
  const { token } = useSession()
  return (
    <Layout>
      <Switch>
        <Route path="/">{token ? <Redirect to="/home" /> : <Landing />}</Route>
        <Route path="/home">
          <SignedIn>
            <Home />
          </SignedIn>
        </Route>
        <Route path="/mentions">
          <SignedIn>
            <Mentions />
          </SignedIn>
        </Route>
        <Route path="/global">
          <Global />
        </Route>
        <Route path="/explore">
          <Explore />
        </Route>
        <Route path="/explore/tag/:tag">{(p) => <Hashtag tag={p.tag} />}</Route>
        <Route path="/explore/:slug">{(p) => <ExploreStreamPosts slug={p.slug} />}</Route>
        <Route path="/messages">
          <SignedIn>
            <Inbox />
          </SignedIn>
        </Route>
        <Route path="/messages/:channelId">
          {(p) => (
            <SignedIn>
              <Conversation key={p.channelId} channelId={p.channelId} />
            </SignedIn>
          )}
        </Route>
        <Route path="/people/:username">{(p) => <Profile username={p.username} />}</Route>
        <Route path="/people/:username/followers">{(p) => <FollowPeople username={p.username} side="followers" />}</Route>
        <Route path="/people/:username/following">{(p) => <FollowPeople username={p.username} side="following" />}</Route>
        <Route path="/interactions">
          <SignedIn>
            <Interactions />
          </SignedIn>
        </Route>
        <Route path="/notifications">
          <SignedIn>
            <NotificationsView />
          </SignedIn>
        </Route>
        <Route path="/search">
          <Search />
        </Route>
        <Route path="/settings">
          <SignedIn>
            <Settings />
          </SignedIn>
        </Route>
        <Route path="/thread/:id">{(p) => <Thread id={p.id} />}</Route>
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </Layout>
  )
}
