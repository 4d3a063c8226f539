/** Every route of the API, listed explicitly. */
import type { Domain } from '../../data/index.js'
import type { SvcRoute } from '../route.js'
import type { PageSite } from '../pages/share-meta.js'
import { sharedOf } from './shared.js'
import { channelRoutes } from './channels/channels.js'
import { exploreRoutes } from './explore/explore.js'
import { filterRoutes } from './filters/filters.js'
import { fileRoutes } from './files/files.js'
import { interactionRoutes } from './posts/interactions.js'
import { markerRoutes } from './channels/markers.js'
import { messageRoutes } from './channels/messages.js'
import { messageSearchRoutes } from './channels/message-search.js'
import { subscriptionRoutes } from './channels/subscriptions.js'
import { postStreamRoutes } from './posts/post-streams.js'
import { postSearchRoutes } from './posts/post-search.js'
import { postRoutes } from './posts/posts.js'
import { relationRoutes } from './relations/relations.js'
import { repostRoutes } from './posts/reposts.js'
import { starRoutes } from './posts/stars.js'
import { reportRoutes } from './moderation/reports.js'
import { userRoutes } from './users/users.js'
import { profileRoutes } from './users/profile.js'
import { userSearchRoutes } from './users/user-search.js'
import { userImageRoutes } from './users/user-images.js'
import { twoFactorRoutes } from './users/two-factor.js'
import { accountControlRoutes } from './users/account-control.js'
import { appPasswordRoutes } from './users/app-passwords.js'
import { exportRoutes } from './users/export.js'
import { imageRoutes } from './images/images.js'
import { appRoutes } from './auth/apps.js'
import { oauthRoutes } from './auth/oauth.js'
import { oauthFlowRoutes } from './auth/oauth-flow.js'
import { signupRoutes } from './auth/signup.js'
import { passwordResetRoutes } from './auth/password-reset.js'
import { accountEmailRoutes } from './users/account-email.js'
import { userPageRoutes } from './users/user-page.js'
import { postPageRoutes } from './posts/post-page.js'
import { oembedRoutes } from './posts/oembed.js'
import { userFeedRoutes } from './users/user-feed.js'
import { broadcastPageRoutes } from './channels/broadcast-page.js'
import { tokenRoutes } from './auth/token.js'
import { textRoutes } from './instance/text.js'
import { configRoutes } from './instance/config.js'
import { healthRoutes } from './instance/health.js'
import { apiDocumentRoutes } from './instance/api-document.js'
import { userStreamRoutes } from './streams/user-streams.js'
import { appStreamRoutes } from './streams/app-streams.js'
import { webClientRoutes } from './web/web-client.js'
import { placeRoutes } from './places/places.js'
import { federationRoutes } from './federation/federation.js'

/**
 * Every route, in the order hapi gets them: each noun's routes receive that
 * noun's group of services, and what they share (the views presenters read,
 * the kept answers, the user streams a list's call may subscribe).
 */
export const allRoutes = (domain: Domain): SvcRoute[] => {
  const shared = sharedOf(domain)
  const { users, relations, posts, channels, auth, streams, config } = domain
  const routes: SvcRoute[] = []
  // What the public pages, their feeds and their oEmbed answers show of the instance.
  const site: PageSite = { name: config.name, renderer: domain.views.annotationRenderer }
  routes.push(...apiDocumentRoutes(routes, config))
  routes.push(
    ...userRoutes(users, shared),
    ...profileRoutes(users, shared),
    ...userSearchRoutes(users, shared),
    ...userImageRoutes(users, shared),
    ...twoFactorRoutes(auth),
    ...accountControlRoutes(auth),
    ...appPasswordRoutes(auth),
    ...exportRoutes(domain.exports, shared),
    ...imageRoutes(users),
    ...relationRoutes(relations, shared),
    ...postRoutes(posts, shared),
    ...starRoutes(posts, shared),
    ...reportRoutes(domain.reports, shared),
    ...repostRoutes(posts, shared),
    ...postStreamRoutes(posts, shared),
    ...exploreRoutes(domain.explore, shared),
    ...postSearchRoutes(posts, shared),
    ...interactionRoutes(posts, shared),
    ...channelRoutes(channels, shared),
    ...subscriptionRoutes(channels, shared),
    ...messageRoutes(channels, shared),
    ...messageSearchRoutes(channels, shared),
    ...markerRoutes(channels),
    ...tokenRoutes(auth, shared),
    ...userStreamRoutes(streams, shared),
    ...appStreamRoutes(streams, shared),
    ...filterRoutes(domain.filters, shared),
    ...fileRoutes(domain.files, { tokens: auth.tokens, limits: config.limits }, shared),
    ...placeRoutes(domain.places),
    ...textRoutes(domain.text),
    ...configRoutes(),
    ...healthRoutes(domain.health),
    ...appRoutes(auth, shared),
    ...oauthRoutes(auth, shared),
    ...oauthFlowRoutes(auth, config),
    ...signupRoutes(auth, config),
    ...passwordResetRoutes(auth, config),
    ...accountEmailRoutes(auth),
    ...userPageRoutes(users, domain.public, domain.federation, site),
    ...userFeedRoutes(users, domain.public, site),
    ...postPageRoutes(domain.public, domain.federation, site),
    ...oembedRoutes(users, domain.public, site),
    ...federationRoutes(domain.federation),
    ...broadcastPageRoutes(domain.public),
    ...webClientRoutes(auth, config),
  )
  return routes
}
