/**
 * The console's tabs, in order (the number keys go to them), and the keys
 * that work on every tab. Adding a tab: a view in views/ (a live one reads
 * its watch topic with `useWatch`), its keys, and a line here.
 */
import type { ComponentType } from 'react'
import { AppStreamsView, appStreamsKeys } from './views/app-streams-view.js'
import { AppsView, appsKeys } from './views/apps-view.js'
import { EventsView, eventsKeys } from './views/events-view.js'
import { ExploreView, exploreKeys } from './views/explore-view.js'
import { FederationView, federationKeys } from './views/federation-view.js'
import { FiltersView, filtersKeys } from './views/filters-view.js'
import { ReportsView, reportsKeys } from './views/reports-view.js'
import type { KeyDoc } from './views/key-help.js'
import { StreamsView, streamsKeys } from './views/streams-view.js'
import { TokensView, tokensKeys } from './views/tokens-view.js'
import { UsersView, usersKeys } from './views/users-view.js'
import type { ViewProps } from './views/view-props.js'

export interface Tab {
  title: string
  /** The title when the full ones do not fit the terminal's width. */
  short: string
  View: ComponentType<ViewProps>
  /** The view's own keys, for the line under it and the help. */
  keys: readonly KeyDoc[]
}

export const tabs: readonly Tab[] = [
  { title: 'Tokens', short: 'Tok', View: TokensView, keys: tokensKeys },
  { title: 'Explore', short: 'Expl', View: ExploreView, keys: exploreKeys },
  { title: 'Users', short: 'Usr', View: UsersView, keys: usersKeys },
  { title: 'Apps', short: 'App', View: AppsView, keys: appsKeys },
  { title: 'Streams', short: 'Strm', View: StreamsView, keys: streamsKeys },
  { title: 'Events', short: 'Ev', View: EventsView, keys: eventsKeys },
  { title: 'App streams', short: 'AppS', View: AppStreamsView, keys: appStreamsKeys },
  { title: 'Filters', short: 'Filt', View: FiltersView, keys: filtersKeys },
  { title: 'Federation', short: 'Fed', View: FederationView, keys: federationKeys },
  { title: 'Reports', short: 'Rep', View: ReportsView, keys: reportsKeys },
]

export const globalKeys: readonly KeyDoc[] = [
  ['Tab →', 'next tab'],
  ['S-Tab ←', 'previous tab'],
  ['1-9, 0', 'go to that tab (0 is the tenth)'],
  ['↑↓', 'select a row'],
  ['PgUp PgDn', 'a page up, down'],
  ['Home End', 'first row, last row'],
  ['/', 'search the list: type to narrow it, Enter keeps, Esc clears'],
  ['g', 'fetch the list again (live tabs update by themselves)'],
  ['?', 'this help'],
  ['q', 'quit'],
]
