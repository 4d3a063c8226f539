/** Every route of the API, listed explicitly. */
import type { Domain } from '../../data/index.js'
import type { SvcRoute } from '../route.js'
import { postStreamRoutes } from './post-streams.js'
import { postRoutes } from './posts.js'
import { relationRoutes } from './relations.js'
import { repostRoutes } from './reposts.js'
import { starRoutes } from './stars.js'
import { userRoutes } from './users.js'
import { appRoutes } from './apps.js'
import { oauthRoutes } from './oauth.js'
import { signupRoutes } from './signup.js'
import { tokenRoutes } from './token.js'

export const allRoutes = (domain: Domain): SvcRoute[, ...tokenRoutes(domain), ...appRoutes(domain), ...oauthRoutes(domain), ...signupRoutes(domain)] => [...userRoutes(domain), ...relationRoutes(domain), ...postRoutes(domain), ...starRoutes(domain), ...repostRoutes(domain), ...postStreamRoutes(domain)]
