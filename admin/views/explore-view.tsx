/**
 * The explore streams, each followed by its pinned posts, like a tree:
 * `p` pins a typed post id to the selected line's stream, `u` unpins the
 * selected pin, `d` deletes the selected line's stream after a confirmation.
 */
import { useMemo } from 'react'
import type { CuratedStream } from '../../data/index.js'
import { useKeys } from '../key-router.js'
import { useAdminList } from '../use-admin-list.js'
import { useSelection } from '../use-selection.js'
import type { KeyDoc } from './key-help.js'
import { matching, Table, type Column } from './table.js'
import type { ViewProps } from './view-props.js'

/** A line of the tree: a stream, or one of its pins. */
interface Line {
  stream: CuratedStream
  pin?: string
}

const criterion = ([key, value]: [string, unknown]): string => (value === true ? key : `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`)

const ruleText = (rule: Record<string, unknown>): string => Object.entries(rule).map(criterion).join(' ') || 'every public post'

const columns: readonly Column<Line>[] = [
  { title: 'SLUG', width: 16, value: (l) => (l.pin === undefined ? l.stream.slug : '  └ pin') },
  { title: 'TITLE', width: 18, value: (l) => (l.pin === undefined ? l.stream.title : `post ${l.pin}`) },
  { title: 'PINS', width: 4, value: (l) => (l.pin === undefined ? String(l.stream.pinned.length) : '') },
  { title: 'RULE', width: 56, value: (l) => (l.pin === undefined ? ruleText(l.stream.rule) : '') },
]

const postIdOf = (answer: string): number => {
  if (!/^\d+$/.test(answer.trim())) throw new Error(`"${answer}" is not a post id`)
  return Number(answer)
}

export const exploreKeys: readonly KeyDoc[] = [
  ['p', 'pin a post to the stream'],
  ['u', 'unpin the selected pin'],
  ['d', 'delete the stream'],
]

export function ExploreView({ client, controls, active, refresh, filter }: ViewProps) {
  const { items, reload } = useAdminList<CuratedStream>(client, 'explore.list', controls, refresh)
  const tree = useMemo(() => items?.flatMap((stream): Line[] => [{ stream }, ...stream.pinned.map((pin) => ({ stream, pin }))]) ?? null, [items])
  const lines = matching(tree, columns, filter)
  const selected = useSelection(lines, (l) => `${l.stream.id}:${l.pin ?? ''}`, active)
  const line = lines?.[selected]

  const change = async (op: string, args: Record<string, unknown>, done: string): Promise<string> => {
    await client.call(op, args)
    reload()
    return done
  }

  useKeys((input) => {
    if (!line) return
    const { slug } = line.stream
    if (input === 'p') {
      controls.ask(`pin which post id to ${slug}? (Enter to pin, Esc to cancel)`, (answer) =>
        change('explore.pin', { slug, post_id: postIdOf(answer) }, `pinned post ${answer.trim()} in ${slug}`),
      )
    } else if (input === 'u') {
      const pin = line.pin
      if (pin === undefined) controls.fail('select a pinned post (under its stream) to unpin it')
      else controls.act(() => change('explore.unpin', { slug, post_id: Number(pin) }, `unpinned post ${pin} from ${slug}`))
    } else if (input === 'd') {
      controls.confirm(`delete explore stream ${slug} (${line.stream.title})? (y/n)`, () => change('explore.delete', { slug }, `deleted stream ${slug}`))
    }
  }, active)

  return <Table columns={columns} rows={lines} selected={selected} empty={filter ? `nothing shows "${filter}"` : 'no explore streams (svc explore create)'} />
}
