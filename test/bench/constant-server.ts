/**
 * The yardstick: a bare hapi server answering a constant JSON body of a given
 * size (`GET|POST /constant/{bytes}`), run as its own process like svc, so
 * each measured route stands beside what hapi alone does with the same bytes.
 * Prints its port on stdout once listening.
 */
import Hapi from '@hapi/hapi'
import { constantBodies } from './constant-body.js'

const bodyOf = constantBodies((text) => text)

const server = Hapi.server({ port: 0, host: '127.0.0.1' })
server.route({
  method: ['GET', 'POST'],
  path: '/constant/{bytes}',
  handler: (request, h) => h.response(bodyOf(Math.min(Number(request.params.bytes) || 0, 10_000_000))).type('application/json; charset=utf-8'),
})
await server.start()
process.stdout.write(`${server.info.port}\n`)
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)))
