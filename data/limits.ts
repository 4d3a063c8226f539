/**
 * Every limit svc sets on what clients send. A leaf that imports nothing, so
 * the text pipeline, the services and `GET /config` read the same numbers
 * without depending on one another.
 */

/** Longest post text, in code points (anti-phishing additions excluded). */
export const POST_MAX_LENGTH = 256
/** Longest message text, in code points. */
export const MESSAGE_MAX_LENGTH = 2048
/** Longest user description, in code points. */
export const DESCRIPTION_MAX_LENGTH = 256
/** Longest display name of a user, in code points. */
export const NAME_MAX_LENGTH = 50
/** Longest username; usernames are a-z, 0-9 and `_`. */
export const USERNAME_MAX_LENGTH = 20
/** Shortest password a new account may have. */
export const PASSWORD_MIN_LENGTH = 8
/** User-given mentions a machine-only post or message may carry. */
export const MAX_USER_MENTIONS = 10

/** All annotations of one object together, as serialized JSON. */
export const ANNOTATION_MAX_BYTES = 8192
/** Longest annotation type (`com.example.note`). */
export const ANNOTATION_TYPE_MAX_LENGTH = 255
/** Longest channel type (`com.example.chat`). */
export const CHANNEL_TYPE_MAX_LENGTH = 128
/** `svc.core.channel.metadata` and `svc.core.broadcast.metadata`: title, description, tags. */
export const CHANNEL_TITLE_MAX_LENGTH = 75
export const CHANNEL_DESCRIPTION_MAX_LENGTH = 1000
export const CHANNEL_MAX_TAGS = 3
export const CHANNEL_TAG_MAX_LENGTH = 15
/** The subject of `svc.core.broadcast.message.metadata`. */
export const MESSAGE_SUBJECT_MAX_LENGTH = 128

/** Users in one ACL's `user_ids` (a broadcast's readers are unlimited). */
export const MAX_ACL_USERS = 200
/** Recipients of one private message. */
export const MAX_DESTINATIONS = 200
/** Items in one page of a list, whichever way `count` walks. */
export const MAX_COUNT = 200
/** Items in a page when `count` is not given. */
export const DEFAULT_COUNT = 20

/** How long clients should assume each URI template variable becomes when counting. */
export const URI_TEMPLATE_LENGTH = { post_id: 9, message_id: 12 } as const

const MB = 1024 * 1024
/** Upload rules per image kind (the spec's limits table): bytes strictly under `maxBytes`, at least `minWidth` wide. */
export const IMAGE_UPLOAD_LIMITS = {
  avatar: { maxBytes: 1 * MB, minWidth: 1 },
  cover: { maxBytes: 4 * MB, minWidth: 960 },
} as const satisfies Record<string, { maxBytes: number; minWidth: number }>
/** The largest `w` or `h` a client may ask an image to be resized to. */
export const MAX_IMAGE_SIDE = 2048
/**
 * The sides an image is resized to: an asked `w` or `h` snaps up to the next
 * of these, so one image has a few hundred variants at most, not millions.
 * Those clients ask for come out exact: Alpha's 30, 57 and 80 px avatars and
 * 720 and 862 px covers, the web client's 48 to 192 px avatars (twice their
 * CSS size) and 960 and 1200 px covers, the pages' 48 and 80 px avatars.
 * The last is `MAX_IMAGE_SIDE`.
 */
export const IMAGE_WIDTHS: readonly number[] = [16, 24, 30, 40, 48, 57, 64, 72, 80, 96, 120, 144, 192, 240, 320, 480, 640, 720, 862, 960, 1200, 1600, 2048]
/** New resized variants (not yet in the cache) one client address may cause per minute; cached ones are free. */
export const NEW_IMAGE_VARIANTS_PER_MINUTE = 120
/** Uploads of one user under way at once (bodies arriving or being stored): the web client sends a post's 4 photos together. */
export const UPLOADS_PER_USER = 4
/** Uploads under way at once on one node, all users together. */
export const UPLOADS_AT_ONCE = 32
/** Decoding cap: a small file of one flat colour can claim a huge canvas, and decoding it would take gigabytes. */
export const MAX_INPUT_PIXELS = 40_000_000

/** User streams one user token may hold (connected, or closed and not yet expired). */
export const USER_STREAMS_PER_TOKEN = 5
/** Subscriptions on one user stream (the same list may be subscribed several times). */
export const SUBSCRIPTIONS_PER_STREAM = 50
/** How long a closed user stream can be resumed. */
export const USER_STREAM_EXPIRY_MS = 5 * 60_000
/** Events waiting for one stream's consumer before it is disconnected as too slow. */
export const USER_STREAM_BACKLOG = 1000
/**
 * How long a live stream's event may wait for its turn: past it the server
 * cannot keep up with the stream, whose consumer is disconnected with a
 * reason and may resume from where it was, losing nothing. A last resort:
 * the hub sheds the costliest streams about a second into an overload and
 * gives the rest a second to drain, so in time this catches only a
 * consumer that stopped reading, or an overload the hub misjudged.
 */
export const USER_STREAM_MAX_DELAY_MS = 5000

/** App streams one app token may hold. */
export const APP_STREAMS_PER_TOKEN = 5
/**
 * Events an app stream's queue holds (how far its cursor may fall behind the
 * log's head) before the oldest are dropped and a connected consumer is told
 * why and disconnected. Capped by the log's own `events.max_events`.
 */
export const APP_STREAM_QUEUE_LIMIT = 100_000
/** Longest app stream `key`. */
export const APP_STREAM_KEY_MAX_LENGTH = 100

/** Clauses in one filter. */
export const FILTER_MAX_CLAUSES = 50
/** Longest filter name, in code points. */
export const FILTER_NAME_MAX_LENGTH = 100
/** Longest clause field (a JSON Pointer), in characters. */
export const FILTER_FIELD_MAX_LENGTH = 256
/** Elements of one `one_of` list. */
export const FILTER_MAX_LIST_VALUES = 200
/** Longest string value of a clause (or element of its list), in characters. */
export const FILTER_VALUE_MAX_LENGTH = 1000
/** Filters one user may hold. */
export const FILTERS_PER_USER = 200

/** Longest file name, in code points. */
export const FILE_NAME_MAX_LENGTH = 255
/** Derived files a client may upload to one file (thumbnails svc makes do not count). */
export const MAX_CUSTOM_DERIVED_FILES = 32
/** Files asked for at once by `GET /files?ids=`. */
export const MAX_FILE_IDS = 200
/** Longest file type (`com.example.photo`). */
export const FILE_TYPE_MAX_LENGTH = 255

/** The instance's name (`name` in config.json), shown as the web client's title. */
export const INSTANCE_NAME_MAX = 100
/** The instance's description (`description` in config.json), shown on the landing page. */
export const INSTANCE_DESCRIPTION_MAX = 500
/** The instance's rules (`rules` in config.json), shown at sign-up. */
export const INSTANCE_RULES_MAX = 10_000

/** Places search radius, in metres (spec: Limits). */
export const PLACE_RADIUS_MIN = 0.001
export const PLACE_RADIUS_MAX = 50_000
export const PLACE_RADIUS_DEFAULT = 100
/** Places in one search answer. */
export const PLACE_COUNT_MAX = 100
export const PLACE_COUNT_DEFAULT = 20
/** Longest places search `q`, in characters. */
export const PLACE_QUERY_MAX_LENGTH = 100
/** Two places of the same name closer than this, in metres, are one. */
export const PLACE_DUPLICATE_METRES = 25
