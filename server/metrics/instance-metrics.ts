/**
 * The instance's Prometheus metrics (prom-client), in a registry of its own:
 * requests by method, route and status with their latency, what the domain
 * knows of its event log, streams and store (read when scraped), and the
 * process's own (memory, CPU, event-loop delay, garbage collection).
 */
import type { Plugin } from '@hapi/hapi'
import client from 'prom-client'
import type { Domain } from '../../data/index.js'
import { outcomeOf } from '../request-outcome.js'

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export interface InstanceMetrics {
  registry: client.Registry
  /** Counts each answered request in the latency histogram. */
  plugin: Plugin<void>
}

const gauge = (registry: client.Registry, name: string, help: string, read: () => number) =>
  new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read())
    },
  })

export function instanceMetrics(domain: Domain): InstanceMetrics {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  const requests = new client.Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Answered HTTP requests by method, route (its path template) and status, and how long each took',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  // One read of the domain's facts per scrape, shared by the gauges below.
  let facts = domain.health.facts()
  let readAt = 0
  const now = () => {
    if (Date.now() - readAt > 100) {
      facts = domain.health.facts()
      readAt = Date.now()
    }
    return facts
  }
  gauge(registry, 'svc_event_log_head', 'The newest seq of the event log', () => now().eventHead)
  gauge(registry, 'svc_event_log_oldest', 'The oldest seq the event log still holds', () => now().eventOldest)
  gauge(registry, 'svc_user_streams_connected', 'User streams connected to this process', () => now().userStreams.connected)
  gauge(registry, 'svc_user_streams_backlog_events', 'Events waiting in the backlogs of the connected user streams, together', () => now().userStreams.backlog)
  gauge(
    registry,
    'svc_user_streams_lag_events',
    "How many events the furthest behind connected user stream is behind the log's head",
    () => now().userStreams.lag,
  )
  gauge(registry, 'svc_user_streams_waiting', 'User streams with events waiting for a turn of delivery', () => now().userStreams.waiting)
  new client.Counter({
    name: 'svc_user_streams_shed_total',
    help: 'User stream consumers disconnected because their events waited too long for delivery (the server was behind)',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(now().userStreams.shed)
    },
  })
  gauge(registry, 'svc_app_streams_connected', 'App streams with a consumer connected to this process', () => now().appStreams.connected)
  gauge(registry, 'svc_app_streams_queued_events', "Events between the app streams' positions and the log's head, together", () => now().appStreams.queued)
  gauge(registry, 'svc_store_journal_bytes', "The embedded store's journal since its last snapshot (0 on PostgreSQL)", () => now().journalBytes)
  gauge(registry, 'svc_federation_queue_messages', "Federation's durable queue: activities and deliveries waiting", () => now().rows.federation_queue ?? 0)
  new client.Gauge({
    name: 'svc_store_rows',
    help: 'Rows in each table of the store',
    labelNames: ['table'],
    registers: [registry],
    collect() {
      for (const [table, rows] of Object.entries(now().rows)) this.set({ table }, rows)
    },
  })
  const plugin: Plugin<void> = {
    name: 'svc-metrics',
    register(server) {
      server.events.on('response', (request) => {
        const { status, ms } = outcomeOf(request)
        requests.observe({ method: request.method.toUpperCase(), route: request.route.path, status: status === null ? 'none' : String(status) }, ms / 1000)
      })
    },
  }
  return { registry, plugin }
}
