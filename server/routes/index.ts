/** Every route of the API, listed explicitly. */
import type { Domain } from '../../data/index.js'
import type { SvcRoute } from '../route.js'
import { userRoutes } from './users.js'

export const allRoutes = (domain: Domain): SvcRoute[] => [...userRoutes(domain)]
