/** The server package's door for bin/: what it takes to run a server and its admin socket, and to run an admin operation without one. */
export { createServer } from './server.js'
export { serveAdminSocket, runAdminOperation, type AdminSocket } from './admin-socket.js'
export { makeLogger, type LogOutput } from './logs/logger.js'
export { instanceMetrics, type InstanceMetrics } from './metrics/instance-metrics.js'
export { serveMetrics, type MetricsServer } from './metrics/metrics-server.js'
