/** A hello-world hapi server in a worker thread: the baseline the API's numbers are read against. */
import Hapi from '@hapi/hapi'
import { parentPort } from 'node:worker_threads'

const server = Hapi.server({ port: 0, host: '127.0.0.1' })
server.route({ method: 'GET', path: '/', handler: () => ({ hello: 'world' }) })
await server.start()
parentPort!.postMessage(server.info.port)
