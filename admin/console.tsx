/**
 * The admin console: one tab per thing an operator looks after, keys like
 * k9s's, a search box on every list, the keys on `?`, and a status line for
 * what the server answered. It only draws what its `AdminClient` answers,
 * so it runs the same on a real server's socket and on a test's fake.
 */
import { Box, useApp } from 'ink'
import { useEffect, useState } from 'react'
import type { AdminClient } from './admin-client.js'
import { DialogLine } from './dialog-line.js'
import { HelpOverlay } from './help-overlay.js'
import { KeyRouter, useKeyCapture, useKeys } from './key-router.js'
import { SearchLine } from './search-line.js'
import { StatusLine } from './status-line.js'
import { TabBar } from './tab-bar.js'
import { tabs } from './tabs.js'
import { idle, useControls } from './use-controls.js'
import { useSearch } from './use-search.js'
import { KeyHelp } from './views/key-help.js'

/** While no server answers, the current tab asks again this often (a live tab's watch retries on its own too). */
export const RETRY_MS = 1000

export const Console = ({ client }: { client: AdminClient }) => (
  <KeyRouter>
    <Screen client={client} />
  </KeyRouter>
)

function Screen({ client }: { client: AdminClient }) {
  const { exit } = useApp()
  const [current, setCurrent] = useState(0)
  const [refresh, setRefresh] = useState(0)
  const [help, setHelp] = useState(false)
  const search = useSearch(tabs.length, current)
  const { filter, searching } = search
  const { status, dialog, typed, controls } = useControls(idle)

  const go = (to: number) => {
    setCurrent(to)
    // What the last tab said is about that tab.
    controls.clear()
  }

  // A lost server: ask again until it answers (the answer clears the status).
  useEffect(() => {
    if (!status.lost) return
    const timer = setInterval(() => setRefresh((n) => n + 1), RETRY_MS)
    return () => clearInterval(timer)
  }, [status.lost])

  const capture = useKeyCapture()
  // The help takes the keys at once, as the search box does: those typed after the ? are its.
  // q closes it (and only it: a q meant for the help never quits the console).
  const showHelp = () => {
    setHelp(true)
    capture((input, key) => {
      if (input !== '?' && input !== 'q' && !key.escape) return
      capture(null)
      setHelp(false)
    })
  }

  const free = dialog === null && !help && !searching
  // The search box and the help capture the keys while open: they come back here as soon as those close.
  useKeys((input, key) => {
    if (input === 'q') exit()
    else if (input === 'g') setRefresh((n) => n + 1)
    else if (input === '?') showHelp()
    else if (input === '/') search.start()
    else if (key.escape && filter !== '') search.clear()
    else if (/^[0-9]$/.test(input) && (Number(input) + 9) % 10 < tabs.length) go((Number(input) + 9) % 10)
    else if (key.leftArrow || (key.tab && key.shift)) go((current - 1 + tabs.length) % tabs.length)
    else if (key.rightArrow || key.tab) go((current + 1) % tabs.length)
  }, dialog === null)

  const tab = tabs[current]
  const { View } = tab
  let footer
  if (dialog) footer = <DialogLine dialog={dialog} typed={typed} />
  else if (searching) footer = <SearchLine typed={search.typed} />
  else footer = <StatusLine status={status} filter={filter} />
  return (
    <Box flexDirection="column">
      <TabBar tabs={tabs} current={current} />
      <Box marginY={1} flexDirection="column">
        {help && <HelpOverlay tab={tab} />}
        {/* Hidden, not gone, under the help: its list and selection are there when the help closes. */}
        <Box display={help ? 'none' : 'flex'} flexDirection="column">
          <View key={current} client={client} controls={controls} active={free} refresh={refresh} filter={filter} />
          <KeyHelp keys={tab.keys} />
        </Box>
      </Box>
      {footer}
    </Box>
  )
}
