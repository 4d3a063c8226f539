/** Every route of the API, listed explicitly. */
import type { Domain } from '../../data/index.js'
import type { SvcRoute } from '../route.js'
import { channelRoutes } from './channels/channels.js'
import { exploreRoutes } from './explore/explore.js'
import { filterRoutes } from './filters/filters.js'
import { fileRoutes } from './files/files.js'
import { interactionRoutes } from './posts/interactions.js'
import { markerRoutes } from './channels/markers.js'
import { messageRoutes } from './channels/messages.js'
import { subscriptionRoutes } from './channels/subscriptions.js'
import { postStreamRoutes } from './posts/post-streams.js'
import { postSearchRoutes } from './posts/post-search.js'
import { postRoutes } from './posts/posts.js'
import { relationRoutes } from './relations/relations.js'
import { repostRoutes } from './posts/reposts.js'
import { starRoutes } from './posts/stars.js'
import { userRoutes } from './users/users.js'
import { profileRoutes } from './users/profile.js'
import { userSearchRoutes } from './users/user-search.js'
import { userImageRoutes } from './users/user-images.js'
import { imageRoutes } from './images/images.js'
import { appRoutes } from './auth/apps.js'
import { oauthRoutes } from './auth/oauth.js'
import { oauthFlowRoutes } from './auth/oauth-flow.js'
import { signupRoutes } from './auth/signup.js'
import { userPageRoutes } from './users/user-page.js'
import { postPageRoutes } from './posts/post-page.js'
import { broadcastPageRoutes } from './channels/broadcast-page.js'
import { tokenRoutes } from './auth/token.js'
import { textRoutes } from './instance/text.js'
import { configRoutes } from './instance/config.js'
import { userStreamRoutes } from './streams/user-streams.js'
import { appStreamRoutes } from './streams/app-streams.js'
import { webClientRoutes } from './web/web-client.js'
import { placeRoutes } from './places/places.js'

/** Each noun's routes, in the order hapi gets them. */
const routeLists: readonly ((domain: Domain) => SvcRoute[])[] = [
  userRoutes,
  profileRoutes,
  userSearchRoutes,
  userImageRoutes,
  imageRoutes,
  relationRoutes,
  postRoutes,
  starRoutes,
  repostRoutes,
  postStreamRoutes,
  exploreRoutes,
  postSearchRoutes,
  interactionRoutes,
  channelRoutes,
  subscriptionRoutes,
  messageRoutes,
  markerRoutes,
  tokenRoutes,
  userStreamRoutes,
  appStreamRoutes,
  filterRoutes,
  fileRoutes,
  placeRoutes,
  textRoutes,
  configRoutes,
  appRoutes,
  oauthRoutes,
  oauthFlowRoutes,
  signupRoutes,
  userPageRoutes,
  postPageRoutes,
  broadcastPageRoutes,
  webClientRoutes,
]

export const allRoutes = (domain: Domain): SvcRoute[] => routeLists.flatMap((routes) => routes(domain))
