/**
 * The metrics `svc serve --metrics-port` serves: Prometheus' text format on
 * 127.0.0.1, requests by route and status with their latency, the event
 * log, streams and store as the domain has them, and the process's own.
 */
import t from 'tap'
import { serveMetrics } from '../../../server/index.js'
import { makeInstance } from '../../fixtures/instance.js'

/** The value of the sample `name{labels}` (labels as Prometheus prints them), or undefined. */
const sample = (text: string, name: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

t.test('requests, the event log, the store and the process, scraped from 127.0.0.1', async (t) => {
  const svc = await makeInstance(t, {}, { metrics: true })
  const other = await makeInstance(t)
  await other.call('GET', '/stream/0/posts/stream/global')
  const alice = await svc.person('alice')
  for (const text of ['one', 'two']) await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text } })
  await svc.call('GET', '/stream/0/posts/999999')
  const server = await serveMetrics(svc.metrics!.registry, 0)
  t.teardown(() => server.close())
  t.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, 'on the loopback address only')
  const res = await fetch(server.url)
  t.equal(res.status, 200)
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
  const text = await res.text()
  t.equal(sample(text, 'svc_http_request_duration_seconds_count{method="POST",route="/posts",status="200"}'), 2, 'two posts')
  t.equal(sample(text, 'svc_http_request_duration_seconds_count{method="GET",route="/posts/{post_id}",status="404"}'), 1, 'one miss, by its route')
  t.equal(sample(text, 'svc_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/posts",status="200"}'), 2)
  t.notOk(text.includes('route="/posts/stream/global"'), "another server's requests are its own")
  t.equal(sample(text, 'svc_event_log_head'), svc.domain.events.head())
  t.equal(sample(text, 'svc_store_rows{table="posts"}'), 2)
  t.equal(sample(text, 'svc_user_streams_connected'), 0)
  t.equal(sample(text, 'svc_user_streams_waiting'), 0)
  t.equal(sample(text, 'svc_user_streams_shed_total'), 0)
  t.equal(sample(text, 'svc_app_streams_connected'), 0)
  t.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 0, 'the process memory')
  t.ok(sample(text, 'nodejs_eventloop_lag_p99_seconds') !== undefined, 'the event-loop delay')
  t.equal((await fetch(server.url.replace('/metrics', '/'))).status, 404, 'nothing else on that port')
  t.equal((await fetch(server.url, { method: 'POST' })).status, 405)
})

t.test("the gauges follow the domain's store and event log as they change", async (t) => {
  const svc = await makeInstance(t, {}, { metrics: true })
  const server = await serveMetrics(svc.metrics!.registry, 0)
  t.teardown(() => server.close())
  const scrape = async () => (await fetch(server.url)).text()
  const before = await scrape()
  const alice = await svc.person('alice')
  await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'counted' } })
  // Facts are read at most every 100 ms, so two scrapes in a row share one reading.
  await new Promise((resolve) => setTimeout(resolve, 150))
  const after = await scrape()
  t.equal(sample(after, 'svc_store_rows{table="posts"}'), 1)
  t.equal(sample(after, 'svc_event_log_head'), svc.domain.events.head())
  t.ok(sample(after, 'svc_event_log_head')! > sample(before, 'svc_event_log_head')!, 'the head moved on')
  t.equal(sample(after, 'svc_store_rows{table="users"}'), 1)
})
