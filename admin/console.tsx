/**
 * The admin console: one tab per thing an operator looks after, keys like
 * htop's, and a status line for what the server answered. It only draws what
 * its `AdminClient` answers, so it runs the same on a real server's socket
 * and on a test's fake.
 */
import { Box, useApp } from 'ink'
import { useState, type ComponentType } from 'react'
import type { AdminClient } from './admin-client.js'
import { DialogLine } from './dialog-line.js'
import { KeyRouter, useKeys } from './key-router.js'
import { StatusLine } from './status-line.js'
import { TabBar } from './tab-bar.js'
import { useControls } from './use-controls.js'
import { AppsView } from './views/apps-view.js'
import { ExploreView } from './views/explore-view.js'
import { TokensView } from './views/tokens-view.js'
import { UsersView } from './views/users-view.js'
import type { ViewProps } from './views/view-props.js'

const tabs: readonly { title: string; View: ComponentType<ViewProps> }[] = [
  { title: 'Tokens', View: TokensView },
  { title: 'Explore', View: ExploreView },
  { title: 'Users', View: UsersView },
  { title: 'Apps', View: AppsView },
]

export const Console = ({ client }: { client: AdminClient }) => (
  <KeyRouter>
    <Screen client={client} />
  </KeyRouter>
)

function Screen({ client }: { client: AdminClient }) {
  const { exit } = useApp()
  const [current, setCurrent] = useState(0)
  const [refresh, setRefresh] = useState(0)
  const { status, dialog, controls, reply } = useControls({ tone: 'info', text: 'ready' })
  const step = (by: number) => setCurrent((n) => (n + by + tabs.length) % tabs.length)

  useKeys((input, key) => {
    if (input === 'q') exit()
    else if (input === 'g') setRefresh((n) => n + 1)
    else if (key.leftArrow || (key.tab && key.shift)) step(-1)
    else if (key.rightArrow || key.tab) step(1)
  }, dialog === null)

  const { View } = tabs[current]
  return (
    <Box flexDirection="column">
      <TabBar titles={tabs.map((t) => t.title)} current={current} />
      <Box marginY={1}>
        <View client={client} controls={controls} active={dialog === null} refresh={refresh} />
      </Box>
      {dialog ? <DialogLine dialog={dialog} reply={reply} /> : <StatusLine status={status} />}
    </Box>
  )
}
