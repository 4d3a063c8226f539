/** Every route of the API, listed explicitly. */
import type { Domain } from '../../data/index.js'
import type { SvcRoute } from '../route.js'
import { postStreamRoutes } from './post-streams.js'
import { postRoutes } from './posts.js'
import { relationRoutes } from './relations.js'
import { repostRoutes } from './reposts.js'
import { starRoutes } from './stars.js'
import { userRoutes } from './users.js'

export const allRoutes = (domain: Domain): SvcRoute[] => [...userRoutes(domain), ...relationRoutes(domain), ...postRoutes(domain), ...starRoutes(domain), ...repostRoutes(domain), ...postStreamRoutes(domain)]
