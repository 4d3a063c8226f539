/**
 * `svc places import FILE` and `svc places stats`. The import runs here, in
 * the CLI's process, whether or not a server holds the data dir: places are
 * files of their own, not rows of the store. A server that holds the dir is
 * then told to read them again (admin operation `places.reload`), so its
 * searches find the new places without a restart.
 */
import { basename } from 'node:path'
import type { Command } from 'commander'
import { AdminSocketUnreachable, adminSocketPath, callAdminSocket, importPlaces, lockHolder, type ImportProgress, type PlaceStats } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import { existingDataDirOf, reportDataDir } from './data-dir.js'
import { progressReporter } from './progress.js'
import type { RunOperation } from './run-operation.js'

/** Tells the server that holds `dir`, if one does, to read the places again. */
async function reloadServer(io: Io, dir: string): Promise<void> {
  const holder = lockHolder(dir)
  if (holder === null) return
  try {
    await callAdminSocket(adminSocketPath(dir), 'places.reload', {})
    reportDataDir(io, `the server (process ${holder}) searches the new places`)
  } catch (err) {
    if (!(err instanceof AdminSocketUnreachable)) throw err
    reportDataDir(io, `process ${holder} holds data dir ${dir} but does not answer: it reads the new places at its next start`)
  }
}

const describeStats = (stats: PlaceStats): string =>
  [
    `${stats.total} places`,
    ...stats.sources.map((s) => `${s.id}\t${s.count} places\t${s.format}\t${s.name}${s.imported_at ? `\timported ${s.imported_at}` : ''}`),
  ].join('\n')

export function placesCommand(program: Command, io: Io, run: RunOperation): void {
  const places = program.command('places').description('load places (points of interest) and see what is loaded')

  adminSubcommand(places, 'import <file>', 'import the places of an OpenStreetMap extract (.osm.pbf) or a GeoJSON file; again replaces that source').action(
    async (file: string, opts: AdminFlags) => {
      const dir = await existingDataDirOf(io, opts)
      const name = basename(file)
      const progress = await progressReporter(
        io,
        `${name} [{bar}] {percentage}% | {places} places | {eta_formatted} left`,
        (done, total, { places }) => `${name}: ${Math.floor((100 * done) / Math.max(total, 1))}% read, ${places} places`,
      )
      let result
      try {
        result = await importPlaces(dir, file, (p: ImportProgress) => progress.update(p.bytesRead, p.totalBytes, { places: p.count }))
      } finally {
        progress.stop()
      }
      reportDataDir(io, `data dir ${dir} (places/${result.source.file})`)
      await reloadServer(io, dir)
      printResult(io, opts, result, () =>
        [
          `imported ${result.count} places from ${file} (source ${result.source.id})`,
          ...(result.skipped > 0 ? [`skipped ${result.skipped} objects without a name or a position, or seen twice`] : []),
        ].join('\n'),
      )
    },
  )

  adminSubcommand(places, 'stats', 'what places are loaded and from which sources').action(async (opts: AdminFlags) => {
    const stats = await run(opts, 'places.stats', {})
    printResult(io, opts, stats, () => describeStats(stats))
  })
}
