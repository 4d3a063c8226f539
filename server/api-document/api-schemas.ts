/**
 * Made by `npm run api-schemas` from the types of server/api/ (test/tools/api-schemas.ts): do not edit.
 * JSON Schema (draft-07) of each API object, by name; references point into this table as `#/definitions/NAME`.
 */
export const API_SCHEMAS: Readonly<Record<string, object>> = {
  AccountEmail: {
    type: 'object',
    properties: {
      address: {
        type: ['string', 'null'],
        description: 'The address, or null when the account has none.',
      },
      confirmed: {
        type: 'boolean',
      },
      confirmed_at: {
        type: 'string',
        description: 'When it was confirmed, ISO 8601.',
      },
      mail_available: {
        type: 'boolean',
        description: "Can the instance send mail at all? Without, an address cannot be confirmed and a forgotten password is the operator's to reset.",
      },
      required: {
        type: 'boolean',
        description: 'Does the instance require an address (it cannot be removed)?',
      },
      notice: {
        type: 'string',
        description: 'What became of the mail a change or a new request sent, in words for the owner.',
      },
    },
    required: ['address', 'confirmed', 'mail_available', 'required'],
    additionalProperties: false,
    description: "The account's own e-mail address, as `GET /users/me/email` answers it to its owner in svc's own web client.",
  },
  TwoFactorStatus: {
    type: 'object',
    properties: {
      enabled: {
        type: 'boolean',
      },
      enabled_at: {
        type: ['string', 'null'],
        description: 'When it was turned on; null while off.',
      },
      recovery_codes_left: {
        type: 'number',
      },
    },
    required: ['enabled', 'enabled_at', 'recovery_codes_left'],
    additionalProperties: false,
    description: "Where the account's two-factor sign-in stands (`GET /users/me/two_factor`).",
  },
  TwoFactorChange: {
    type: 'object',
    properties: {
      enabled: {
        type: 'boolean',
      },
      enabled_at: {
        type: ['string', 'null'],
        description: 'When it was turned on; null while off.',
      },
      recovery_codes_left: {
        type: 'number',
      },
      recovery_codes: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
    },
    additionalProperties: false,
    required: ['enabled', 'enabled_at', 'recovery_codes_left'],
    description: "A change's answer; `recovery_codes` only where new ones were made (turning it on, renewing them): shown this once.",
  },
  TwoFactorSetup: {
    type: 'object',
    properties: {
      secret: {
        type: 'string',
      },
      otpauth_uri: {
        type: 'string',
      },
      qr_code: {
        type: 'string',
        description: "The URI's QR code, an SVG image as a `data:` URL.",
      },
    },
    required: ['secret', 'otpauth_uri', 'qr_code'],
    additionalProperties: false,
    description: 'What an authenticator app is set up with (`POST /users/me/two_factor/setup`): the only answer that shows the secret.',
  },
  AppPassword: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      name: {
        type: 'string',
      },
      created_at: {
        type: 'string',
      },
      last_used_at: {
        type: ['string', 'null'],
      },
    },
    required: ['id', 'name', 'created_at', 'last_used_at'],
    additionalProperties: false,
    description: 'An app password of the password grant; the password itself only in the answer that made it.',
  },
  CreatedAppPassword: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      name: {
        type: 'string',
      },
      created_at: {
        type: 'string',
      },
      last_used_at: {
        type: ['string', 'null'],
      },
      password: {
        type: 'string',
      },
    },
    required: ['created_at', 'id', 'last_used_at', 'name', 'password'],
    additionalProperties: false,
  },
  AccountSession: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      app_name: {
        type: 'string',
        description: 'The name of the app holding the token.',
      },
      created_at: {
        type: 'string',
      },
      last_used_at: {
        type: ['string', 'null'],
        description: 'Not kept yet: null.',
      },
      scopes: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      current: {
        type: 'boolean',
        description: 'Is it the token making this request?',
      },
    },
    required: ['id', 'app_name', 'created_at', 'last_used_at', 'scopes', 'current'],
    additionalProperties: false,
    description: 'One place the account is signed in: a live user token of it (`GET /users/me/sessions`), never the token itself.',
  },
  SignedOutElsewhere: {
    type: 'object',
    properties: {
      sessions_ended: {
        type: 'number',
        description: 'How many other tokens ended.',
      },
    },
    required: ['sessions_ended'],
    additionalProperties: false,
    description: 'A change that signed the account out everywhere but here (`POST /users/me/password`, `DELETE /users/me/sessions`).',
  },
  DeletedAccount: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      deleted_at: {
        type: ['string', 'null'],
      },
    },
    required: ['id', 'deleted_at'],
    additionalProperties: false,
    description: "What `DELETE /users/me` leaves: the account's id and when it went.",
  },
  Annotation: {
    type: 'object',
    properties: {
      type: {
        type: 'string',
      },
      value: {
        type: 'object',
        additionalProperties: {},
      },
    },
    required: ['type', 'value'],
    additionalProperties: false,
    description: 'An annotation as the API shows it (spec: Annotation): replacement values (`+svc.core.file`, ...) already filled in.',
  },
  ChannelAcl: {
    type: 'object',
    properties: {
      any_user: {
        type: 'boolean',
      },
      immutable: {
        type: 'boolean',
      },
      public: {
        type: 'boolean',
      },
      user_ids: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      you: {
        type: 'boolean',
      },
    },
    required: ['any_user', 'immutable', 'public', 'user_ids', 'you'],
    additionalProperties: false,
    description: 'Who may read, write or edit; `you` says whether the requester may.',
  },
  ChannelCounts: {
    type: 'object',
    properties: {
      messages: {
        type: 'number',
      },
      subscribers: {
        type: 'number',
      },
    },
    required: ['messages', 'subscribers'],
    additionalProperties: false,
  },
  Channel: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      type: {
        type: 'string',
      },
      counts: {
        $ref: '#/definitions/ChannelCounts',
      },
      has_unread: {
        type: 'boolean',
      },
      is_inactive: {
        type: 'boolean',
      },
      readers: {
        $ref: '#/definitions/ChannelAcl',
      },
      writers: {
        $ref: '#/definitions/ChannelAcl',
      },
      editors: {
        $ref: '#/definitions/ChannelAcl',
      },
      you_can_edit: {
        type: 'boolean',
      },
      you_subscribed: {
        type: 'boolean',
      },
      you_muted: {
        type: 'boolean',
      },
      owner: {
        $ref: '#/definitions/User',
        description: "Left out when the owner's account is gone.",
      },
      recent_message_id: {
        type: 'string',
      },
      recent_message: {
        $ref: '#/definitions/Message',
        description: 'Only when asked for (`include_recent_message`).',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_channel_annotations`).',
      },
      marker: {
        $ref: '#/definitions/Marker',
        description: 'Only when asked for (`include_marker`, user tokens).',
      },
    },
    required: ['id', 'type', 'counts', 'has_unread', 'is_inactive', 'readers', 'writers', 'editors', 'you_can_edit', 'you_subscribed', 'you_muted'],
    additionalProperties: false,
  },
  User: {
    type: 'object',
    properties: {
      follows_you: {
        type: 'boolean',
      },
      you_blocked: {
        type: 'boolean',
      },
      you_follow: {
        type: 'boolean',
      },
      you_muted: {
        type: 'boolean',
      },
      you_can_subscribe: {
        type: 'boolean',
      },
      you_can_follow: {
        type: 'boolean',
      },
      follow_pending: {
        type: 'boolean',
        description: 'Only on a remote account (`username` is `name@server`): the viewer asked to follow it and its server has not accepted yet.',
      },
      is_following: {
        type: 'boolean',
        description: 'Deprecated names (spec, Versioning 3): `you_follow`, `follows_you`, `you_muted`, still read by older clients.',
      },
      is_follower: {
        type: 'boolean',
      },
      is_muted: {
        type: 'boolean',
      },
      id: {
        type: 'string',
      },
      username: {
        type: 'string',
      },
      name: {
        type: 'string',
      },
      description: {
        $ref: '#/definitions/UserDescription',
      },
      timezone: {
        type: 'string',
      },
      locale: {
        type: 'string',
      },
      avatar_image: {
        $ref: '#/definitions/UserImage',
      },
      cover_image: {
        $ref: '#/definitions/UserImage',
      },
      type: {
        $ref: '#/definitions/UserType',
      },
      created_at: {
        type: 'string',
      },
      canonical_url: {
        type: 'string',
      },
      counts: {
        $ref: '#/definitions/UserCounts',
      },
      verified_domain: {
        type: 'string',
        description: 'Only when the user verified one.',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_user_annotations`).',
      },
    },
    required: ['id', 'username', 'name', 'description', 'timezone', 'locale', 'avatar_image', 'cover_image', 'type', 'created_at', 'canonical_url', 'counts'],
    additionalProperties: false,
  },
  UserDescription: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
      },
      entities: {
        $ref: '#/definitions/Entities',
      },
      html: {
        type: 'string',
        description: 'Left out with `include_html=0`.',
      },
    },
    required: ['text', 'entities'],
    additionalProperties: false,
  },
  Entities: {
    type: 'object',
    properties: {
      mentions: {
        type: 'array',
        items: {
          $ref: '#/definitions/MentionEntity',
        },
      },
      hashtags: {
        type: 'array',
        items: {
          $ref: '#/definitions/HashtagEntity',
        },
      },
      links: {
        type: 'array',
        items: {
          $ref: '#/definitions/LinkEntity',
        },
      },
    },
    required: ['mentions', 'hashtags', 'links'],
    additionalProperties: false,
  },
  MentionEntity: {
    type: 'object',
    properties: {
      pos: {
        type: 'number',
      },
      len: {
        type: 'number',
      },
      name: {
        type: 'string',
      },
      id: {
        type: 'string',
      },
      is_leading: {
        type: 'boolean',
        description: 'On a reply that starts with the mention.',
      },
    },
    required: ['pos', 'len', 'name', 'id'],
    additionalProperties: false,
    description: 'The entities of a text (spec: Entities object): positions and lengths in code points.',
  },
  HashtagEntity: {
    type: 'object',
    properties: {
      pos: {
        type: 'number',
      },
      len: {
        type: 'number',
      },
      name: {
        type: 'string',
      },
    },
    required: ['pos', 'len', 'name'],
    additionalProperties: false,
  },
  LinkEntity: {
    type: 'object',
    properties: {
      pos: {
        type: 'number',
      },
      len: {
        type: 'number',
      },
      text: {
        type: 'string',
      },
      url: {
        type: 'string',
      },
      amended_len: {
        type: 'number',
        description: "When the text shown was amended (a markdown link's text with its domain after it).",
      },
    },
    required: ['pos', 'len', 'text', 'url'],
    additionalProperties: false,
  },
  UserImage: {
    type: 'object',
    properties: {
      width: {
        type: 'number',
      },
      height: {
        type: 'number',
      },
      is_default: {
        type: 'boolean',
      },
      url: {
        type: 'string',
      },
    },
    required: ['width', 'height', 'is_default', 'url'],
    additionalProperties: false,
    description: 'An avatar or cover: the URL names the file itself, and takes `w` and `h` for a resized copy.',
  },
  UserType: {
    type: 'string',
    enum: ['human', 'feed', 'bot'],
  },
  UserCounts: {
    type: 'object',
    properties: {
      following: {
        type: 'number',
      },
      followers: {
        type: 'number',
      },
      posts: {
        type: 'number',
      },
      stars: {
        type: 'number',
      },
    },
    required: ['following', 'followers', 'posts', 'stars'],
    additionalProperties: false,
  },
  Message: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      channel_id: {
        type: 'string',
      },
      created_at: {
        type: 'string',
      },
      machine_only: {
        type: 'boolean',
      },
      num_replies: {
        type: 'number',
      },
      source: {
        $ref: '#/definitions/Source',
      },
      thread_id: {
        type: 'string',
      },
      user: {
        $ref: '#/definitions/User',
        description: "Left out when the author's account is gone.",
      },
      is_deleted: {
        type: 'boolean',
        const: true,
      },
      text: {
        type: 'string',
        description: 'Left out on a deleted message.',
      },
      entities: {
        $ref: '#/definitions/Entities',
        description: 'Empty lists on a deleted message.',
      },
      html: {
        type: 'string',
        description: 'Left out on a deleted message and with `include_html=0`.',
      },
      reply_to: {
        type: 'string',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_message_annotations`).',
      },
    },
    required: ['id', 'channel_id', 'created_at', 'machine_only', 'num_replies', 'source', 'thread_id', 'entities'],
    additionalProperties: false,
  },
  Source: {
    type: 'object',
    properties: {
      client_id: {
        type: 'string',
      },
      link: {
        type: 'string',
      },
      name: {
        type: 'string',
      },
    },
    required: ['client_id', 'link', 'name'],
    additionalProperties: false,
    description: 'The client app that made a post, message or file (its `source`), or that a token is for (its `app`).',
  },
  Marker: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
      },
      percentage: {
        type: 'number',
      },
      updated_at: {
        type: 'string',
      },
      version: {
        type: 'string',
        description: 'Opaque, changed on every update.',
      },
      id: {
        type: 'string',
        description: 'The item at the top of the viewport when last synced.',
      },
      last_read_id: {
        type: 'string',
        description: 'The highest id ever reported read.',
      },
    },
    required: ['name'],
    additionalProperties: false,
    description: 'A stream marker (spec: Stream marker): `{name}` alone while unset, every field once set.',
  },
  Config: {
    type: 'object',
    properties: {
      text: {
        type: 'object',
        properties: {
          uri_template_length: {
            type: 'object',
            properties: {
              post_id: {
                type: 'number',
              },
              message_id: {
                type: 'number',
              },
            },
            required: ['post_id', 'message_id'],
            additionalProperties: false,
          },
        },
        required: ['uri_template_length'],
        additionalProperties: false,
      },
      user: {
        type: 'object',
        properties: {
          annotation_max_bytes: {
            type: 'number',
          },
          text_max_length: {
            type: 'number',
          },
        },
        required: ['annotation_max_bytes', 'text_max_length'],
        additionalProperties: false,
      },
      file: {
        type: 'object',
        properties: {
          annotation_max_bytes: {
            type: 'number',
          },
        },
        required: ['annotation_max_bytes'],
        additionalProperties: false,
      },
      post: {
        type: 'object',
        properties: {
          annotation_max_bytes: {
            type: 'number',
          },
          text_max_length: {
            type: 'number',
          },
        },
        required: ['annotation_max_bytes', 'text_max_length'],
        additionalProperties: false,
      },
      message: {
        type: 'object',
        properties: {
          annotation_max_bytes: {
            type: 'number',
          },
          text_max_length: {
            type: 'number',
          },
        },
        required: ['annotation_max_bytes', 'text_max_length'],
        additionalProperties: false,
      },
      channel: {
        type: 'object',
        properties: {
          annotation_max_bytes: {
            type: 'number',
          },
        },
        required: ['annotation_max_bytes'],
        additionalProperties: false,
      },
    },
    required: ['text', 'user', 'file', 'post', 'message', 'channel'],
    additionalProperties: false,
    description: "The configuration document of `GET /config`: limits per object type, in the original API's shape.",
  },
  Meta: {
    type: 'object',
    properties: {
      code: {
        type: 'number',
      },
      error_message: {
        type: 'string',
        description: "On errors: meant for people; a 400's starts with `Bad Request: `.",
      },
      error_slug: {
        type: 'string',
        description: 'On some errors: a stable name for the cause (`invalid-token`, ...).',
      },
      error_id: {
        type: 'string',
        description: 'On errors: 32 hex digits naming this occurrence.',
      },
      more: {
        type: 'boolean',
        description: 'Paginated lists (spec rule 4).',
      },
      min_id: {
        type: 'string',
      },
      max_id: {
        type: 'string',
      },
      marker: {
        $ref: '#/definitions/Marker',
        description: 'Lists that have a stream marker (`unified`, `channel:<id>`, `explore:<slug>`, ...).',
      },
      explore_stream: {
        $ref: '#/definitions/ExploreStream',
        description: "An Explore stream's posts: the stream.",
      },
      unread_counts: {
        type: 'object',
        additionalProperties: {
          type: 'number',
        },
        description: "`GET /channels`' inbox: unread channels by type.",
      },
      subscription_ids: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'A call that subscribed a user stream (spec: Subscriptions on a user stream).',
      },
    },
    required: ['code'],
    additionalProperties: false,
  },
  ExploreStream: {
    type: 'object',
    properties: {
      slug: {
        type: 'string',
      },
      title: {
        type: 'string',
      },
      description: {
        type: 'string',
      },
      url: {
        type: 'string',
        description: 'Where its posts are read.',
      },
    },
    required: ['slug', 'title', 'description', 'url'],
    additionalProperties: false,
    description: 'An Explore stream (spec: Explore stream): a curated subset of public posts.',
  },
  ErrorEnvelope: {
    type: 'object',
    properties: {
      meta: {
        type: 'object',
        additionalProperties: false,
        properties: {
          error_message: {
            type: 'string',
            description: "On errors: meant for people; a 400's starts with `Bad Request: `.",
          },
          code: {
            type: 'number',
          },
          error_slug: {
            type: 'string',
            description: 'On some errors: a stable name for the cause (`invalid-token`, ...).',
          },
          error_id: {
            type: 'string',
            description: 'On errors: 32 hex digits naming this occurrence.',
          },
          more: {
            type: 'boolean',
            description: 'Paginated lists (spec rule 4).',
          },
          min_id: {
            type: 'string',
          },
          max_id: {
            type: 'string',
          },
          marker: {
            $ref: '#/definitions/Marker',
            description: 'Lists that have a stream marker (`unified`, `channel:<id>`, `explore:<slug>`, ...).',
          },
          explore_stream: {
            $ref: '#/definitions/ExploreStream',
            description: "An Explore stream's posts: the stream.",
          },
          unread_counts: {
            type: 'object',
            additionalProperties: {
              type: 'number',
            },
            description: "`GET /channels`' inbox: unread channels by type.",
          },
          subscription_ids: {
            type: 'array',
            items: {
              type: 'string',
            },
            description: 'A call that subscribed a user stream (spec: Subscriptions on a user stream).',
          },
        },
        required: ['code', 'error_message'],
      },
    },
    required: ['meta'],
    additionalProperties: false,
    description: 'A failure: `meta` only, with `code` and `error_message`.',
  },
  PaginatedChannel: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pagination_id: {
        type: 'string',
      },
      id: {
        type: 'string',
      },
      type: {
        type: 'string',
      },
      counts: {
        $ref: '#/definitions/ChannelCounts',
      },
      has_unread: {
        type: 'boolean',
      },
      is_inactive: {
        type: 'boolean',
      },
      readers: {
        $ref: '#/definitions/ChannelAcl',
      },
      writers: {
        $ref: '#/definitions/ChannelAcl',
      },
      editors: {
        $ref: '#/definitions/ChannelAcl',
      },
      you_can_edit: {
        type: 'boolean',
      },
      you_subscribed: {
        type: 'boolean',
      },
      you_muted: {
        type: 'boolean',
      },
      owner: {
        $ref: '#/definitions/User',
        description: "Left out when the owner's account is gone.",
      },
      recent_message_id: {
        type: 'string',
      },
      recent_message: {
        $ref: '#/definitions/Message',
        description: 'Only when asked for (`include_recent_message`).',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_channel_annotations`).',
      },
      marker: {
        $ref: '#/definitions/Marker',
        description: 'Only when asked for (`include_marker`, user tokens).',
      },
    },
    required: [
      'counts',
      'editors',
      'has_unread',
      'id',
      'is_inactive',
      'pagination_id',
      'readers',
      'type',
      'writers',
      'you_can_edit',
      'you_muted',
      'you_subscribed',
    ],
    description: 'An item of a paginated list: it carries its place in the list.',
  },
  PaginatedFile: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pagination_id: {
        type: 'string',
      },
      id: {
        type: 'string',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_file_annotations`).',
      },
      complete: {
        type: 'boolean',
      },
      created_at: {
        type: 'string',
      },
      derived_files: {
        type: 'object',
        additionalProperties: {
          $ref: '#/definitions/DerivedFile',
        },
      },
      file_token: {
        type: 'string',
        description: 'The write token: at creation, or echoed to the call that used it; never in a stream.',
      },
      file_token_read: {
        type: 'string',
        description: 'The read token: of a public file, or the one the call used; never in a stream.',
      },
      image_info: {
        $ref: '#/definitions/ImageInfo',
      },
      kind: {
        $ref: '#/definitions/FileKind',
      },
      mime_type: {
        type: 'string',
        description: '`mime_type`, `sha1` and `size` describe the content: left out while the file is incomplete.',
      },
      name: {
        type: 'string',
      },
      public: {
        type: 'boolean',
      },
      sha1: {
        type: 'string',
      },
      size: {
        type: 'number',
      },
      total_size: {
        type: 'number',
      },
      source: {
        $ref: '#/definitions/Source',
      },
      type: {
        type: 'string',
      },
      url: {
        type: 'string',
        description: 'Signed and time-limited, while there is content to read.',
      },
      url_expires: {
        type: 'string',
      },
      url_permanent: {
        type: 'string',
        description: 'Only for a public, complete file.',
      },
      url_short: {
        type: 'string',
      },
      user: {
        $ref: '#/definitions/User',
        description: "Left out when the creator's account is gone.",
      },
    },
    required: ['complete', 'created_at', 'derived_files', 'id', 'kind', 'pagination_id', 'public', 'source', 'total_size', 'type'],
    description: 'An item of a paginated list: it carries its place in the list.',
  },
  File: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_file_annotations`).',
      },
      complete: {
        type: 'boolean',
      },
      created_at: {
        type: 'string',
      },
      derived_files: {
        type: 'object',
        additionalProperties: {
          $ref: '#/definitions/DerivedFile',
        },
      },
      file_token: {
        type: 'string',
        description: 'The write token: at creation, or echoed to the call that used it; never in a stream.',
      },
      file_token_read: {
        type: 'string',
        description: 'The read token: of a public file, or the one the call used; never in a stream.',
      },
      image_info: {
        $ref: '#/definitions/ImageInfo',
      },
      kind: {
        $ref: '#/definitions/FileKind',
      },
      mime_type: {
        type: 'string',
        description: '`mime_type`, `sha1` and `size` describe the content: left out while the file is incomplete.',
      },
      name: {
        type: 'string',
      },
      public: {
        type: 'boolean',
      },
      sha1: {
        type: 'string',
      },
      size: {
        type: 'number',
      },
      total_size: {
        type: 'number',
      },
      source: {
        $ref: '#/definitions/Source',
      },
      type: {
        type: 'string',
      },
      url: {
        type: 'string',
        description: 'Signed and time-limited, while there is content to read.',
      },
      url_expires: {
        type: 'string',
      },
      url_permanent: {
        type: 'string',
        description: 'Only for a public, complete file.',
      },
      url_short: {
        type: 'string',
      },
      user: {
        $ref: '#/definitions/User',
        description: "Left out when the creator's account is gone.",
      },
    },
    required: ['id', 'complete', 'created_at', 'derived_files', 'kind', 'public', 'total_size', 'source', 'type'],
    additionalProperties: false,
  },
  DerivedFile: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: "Left out when neither the client nor the root's name gave one.",
      },
      mime_type: {
        type: 'string',
      },
      sha1: {
        type: 'string',
      },
      size: {
        type: 'number',
      },
      url: {
        type: 'string',
        description: 'Signed and time-limited; only once the root is complete.',
      },
      url_expires: {
        type: 'string',
      },
      image_info: {
        $ref: '#/definitions/ImageInfo',
      },
    },
    required: ['mime_type', 'sha1', 'size'],
    additionalProperties: false,
    description: "A derived file (a thumbnail, or a client's own key), by its key in `derived_files`.",
  },
  ImageInfo: {
    type: 'object',
    properties: {
      width: {
        type: 'number',
      },
      height: {
        type: 'number',
      },
    },
    required: ['width', 'height'],
    additionalProperties: false,
    description: 'Of an image svc could decode.',
  },
  FileKind: {
    type: 'string',
    enum: ['image', 'other'],
  },
  PaginatedInteraction: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pagination_id: {
        type: 'string',
      },
      action: {
        $ref: '#/definitions/InteractionAction',
      },
      event_date: {
        type: 'string',
        description: 'The latest event of the group.',
      },
      objects: {
        type: 'array',
        items: {
          anyOf: [
            {
              $ref: '#/definitions/User',
            },
            {
              $ref: '#/definitions/Post',
            },
            {
              $ref: '#/definitions/Channel',
            },
          ],
        },
        description: 'Users for `follow`, Posts for `star`, `repost` and `reply`, Channels for the broadcast actions.',
      },
      users: {
        type: 'array',
        items: {
          $ref: '#/definitions/User',
        },
        description: 'Who acted.',
      },
    },
    required: ['action', 'event_date', 'objects', 'pagination_id', 'users'],
    description: 'An item of a paginated list: it carries its place in the list.',
  },
  Interaction: {
    type: 'object',
    properties: {
      action: {
        $ref: '#/definitions/InteractionAction',
      },
      event_date: {
        type: 'string',
        description: 'The latest event of the group.',
      },
      objects: {
        type: 'array',
        items: {
          anyOf: [
            {
              $ref: '#/definitions/User',
            },
            {
              $ref: '#/definitions/Post',
            },
            {
              $ref: '#/definitions/Channel',
            },
          ],
        },
        description: 'Users for `follow`, Posts for `star`, `repost` and `reply`, Channels for the broadcast actions.',
      },
      users: {
        type: 'array',
        items: {
          $ref: '#/definitions/User',
        },
        description: 'Who acted.',
      },
    },
    required: ['action', 'event_date', 'objects', 'users'],
    additionalProperties: false,
  },
  InteractionAction: {
    type: 'string',
    enum: ['follow', 'star', 'repost', 'reply', 'broadcast_create', 'broadcast_subscribe', 'broadcast_unsubscribe', 'welcome'],
    description: '`welcome` is named for the clients that ask for it; svc makes none.',
  },
  Post: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      created_at: {
        type: 'string',
      },
      canonical_url: {
        type: 'string',
      },
      machine_only: {
        type: 'boolean',
      },
      num_replies: {
        type: 'number',
      },
      num_reposts: {
        type: 'number',
      },
      num_stars: {
        type: 'number',
      },
      source: {
        $ref: '#/definitions/Source',
      },
      thread_id: {
        type: 'string',
        description: "The thread's root; a post's own id when it is one.",
      },
      user: {
        $ref: '#/definitions/User',
        description: "Left out when the author's account is gone.",
      },
      text: {
        type: 'string',
        description: 'Left out on a deleted post.',
      },
      entities: {
        $ref: '#/definitions/Entities',
        description: 'Empty lists on a deleted post.',
      },
      html: {
        type: 'string',
        description: 'Left out on a deleted post and with `include_html=0`.',
      },
      is_deleted: {
        type: 'boolean',
        const: true,
      },
      deleted: {
        type: 'string',
        const: '1',
        description: "The original API's legacy twin of `is_deleted`, a string.",
      },
      reply_to: {
        type: 'string',
        description: "The parent's id, on replies only.",
      },
      you_starred: {
        type: 'boolean',
        description: 'For a user token.',
      },
      you_reposted: {
        type: 'boolean',
      },
      starred_by: {
        type: 'array',
        items: {
          $ref: '#/definitions/User',
        },
        description: 'Only when asked for (`include_starred_by`).',
      },
      reposters: {
        type: 'array',
        items: {
          $ref: '#/definitions/User',
        },
        description: 'Only when asked for (`include_reposters`).',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_post_annotations`).',
      },
      repost_of: {
        $ref: '#/definitions/Post',
        description: 'On reposts: the original post.',
      },
    },
    required: ['id', 'created_at', 'canonical_url', 'machine_only', 'num_replies', 'num_reposts', 'num_stars', 'source', 'thread_id', 'entities'],
    additionalProperties: false,
  },
  PaginatedMessage: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pagination_id: {
        type: 'string',
      },
      id: {
        type: 'string',
      },
      channel_id: {
        type: 'string',
      },
      created_at: {
        type: 'string',
      },
      machine_only: {
        type: 'boolean',
      },
      num_replies: {
        type: 'number',
      },
      source: {
        $ref: '#/definitions/Source',
      },
      thread_id: {
        type: 'string',
      },
      user: {
        $ref: '#/definitions/User',
        description: "Left out when the author's account is gone.",
      },
      is_deleted: {
        type: 'boolean',
        const: true,
      },
      text: {
        type: 'string',
        description: 'Left out on a deleted message.',
      },
      entities: {
        $ref: '#/definitions/Entities',
        description: 'Empty lists on a deleted message.',
      },
      html: {
        type: 'string',
        description: 'Left out on a deleted message and with `include_html=0`.',
      },
      reply_to: {
        type: 'string',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_message_annotations`).',
      },
    },
    required: ['channel_id', 'created_at', 'entities', 'id', 'machine_only', 'num_replies', 'pagination_id', 'source', 'thread_id'],
    description: 'An item of a paginated list: it carries its place in the list.',
  },
  PaginatedPost: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pagination_id: {
        type: 'string',
      },
      id: {
        type: 'string',
      },
      created_at: {
        type: 'string',
      },
      canonical_url: {
        type: 'string',
      },
      machine_only: {
        type: 'boolean',
      },
      num_replies: {
        type: 'number',
      },
      num_reposts: {
        type: 'number',
      },
      num_stars: {
        type: 'number',
      },
      source: {
        $ref: '#/definitions/Source',
      },
      thread_id: {
        type: 'string',
        description: "The thread's root; a post's own id when it is one.",
      },
      user: {
        $ref: '#/definitions/User',
        description: "Left out when the author's account is gone.",
      },
      text: {
        type: 'string',
        description: 'Left out on a deleted post.',
      },
      entities: {
        $ref: '#/definitions/Entities',
        description: 'Empty lists on a deleted post.',
      },
      html: {
        type: 'string',
        description: 'Left out on a deleted post and with `include_html=0`.',
      },
      is_deleted: {
        type: 'boolean',
        const: true,
      },
      deleted: {
        type: 'string',
        const: '1',
        description: "The original API's legacy twin of `is_deleted`, a string.",
      },
      reply_to: {
        type: 'string',
        description: "The parent's id, on replies only.",
      },
      you_starred: {
        type: 'boolean',
        description: 'For a user token.',
      },
      you_reposted: {
        type: 'boolean',
      },
      starred_by: {
        type: 'array',
        items: {
          $ref: '#/definitions/User',
        },
        description: 'Only when asked for (`include_starred_by`).',
      },
      reposters: {
        type: 'array',
        items: {
          $ref: '#/definitions/User',
        },
        description: 'Only when asked for (`include_reposters`).',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_post_annotations`).',
      },
      repost_of: {
        $ref: '#/definitions/Post',
        description: 'On reposts: the original post.',
      },
    },
    required: [
      'canonical_url',
      'created_at',
      'entities',
      'id',
      'machine_only',
      'num_replies',
      'num_reposts',
      'num_stars',
      'pagination_id',
      'source',
      'thread_id',
    ],
    description: 'An item of a paginated list: it carries its place in the list.',
  },
  PaginatedToken: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pagination_id: {
        type: 'string',
      },
      app: {
        $ref: '#/definitions/Source',
      },
      client_id: {
        type: 'string',
      },
      scopes: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      limits: {
        $ref: '#/definitions/TokenLimits',
      },
      storage: {
        $ref: '#/definitions/TokenStorage',
      },
      invite_link: {
        type: 'string',
      },
      user: {
        $ref: '#/definitions/User',
        description: 'Only for user tokens.',
      },
    },
    required: ['app', 'client_id', 'invite_link', 'limits', 'pagination_id', 'scopes', 'storage'],
    description: 'An item of a paginated list: it carries its place in the list.',
  },
  Token: {
    type: 'object',
    properties: {
      app: {
        $ref: '#/definitions/Source',
      },
      client_id: {
        type: 'string',
      },
      scopes: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      limits: {
        $ref: '#/definitions/TokenLimits',
      },
      storage: {
        $ref: '#/definitions/TokenStorage',
      },
      invite_link: {
        type: 'string',
      },
      user: {
        $ref: '#/definitions/User',
        description: 'Only for user tokens.',
      },
    },
    required: ['app', 'client_id', 'scopes', 'limits', 'storage', 'invite_link'],
    additionalProperties: false,
  },
  TokenLimits: {
    type: 'object',
    properties: {
      following: {
        type: 'number',
      },
      max_file_size: {
        type: 'number',
        description: 'Bytes.',
      },
      available_invites: {
        type: 'number',
      },
    },
    required: ['following', 'max_file_size', 'available_invites'],
    additionalProperties: false,
  },
  TokenStorage: {
    type: 'object',
    properties: {
      available: {
        type: 'number',
      },
      used: {
        type: 'number',
      },
    },
    required: ['available', 'used'],
    additionalProperties: false,
    description: 'Bytes.',
  },
  PaginatedUser: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pagination_id: {
        type: 'string',
      },
      follows_you: {
        type: 'boolean',
      },
      you_blocked: {
        type: 'boolean',
      },
      you_follow: {
        type: 'boolean',
      },
      you_muted: {
        type: 'boolean',
      },
      you_can_subscribe: {
        type: 'boolean',
      },
      you_can_follow: {
        type: 'boolean',
      },
      follow_pending: {
        type: 'boolean',
        description: 'Only on a remote account (`username` is `name@server`): the viewer asked to follow it and its server has not accepted yet.',
      },
      is_following: {
        type: 'boolean',
        description: 'Deprecated names (spec, Versioning 3): `you_follow`, `follows_you`, `you_muted`, still read by older clients.',
      },
      is_follower: {
        type: 'boolean',
      },
      is_muted: {
        type: 'boolean',
      },
      id: {
        type: 'string',
      },
      username: {
        type: 'string',
      },
      name: {
        type: 'string',
      },
      description: {
        $ref: '#/definitions/UserDescription',
      },
      timezone: {
        type: 'string',
      },
      locale: {
        type: 'string',
      },
      avatar_image: {
        $ref: '#/definitions/UserImage',
      },
      cover_image: {
        $ref: '#/definitions/UserImage',
      },
      type: {
        $ref: '#/definitions/UserType',
      },
      created_at: {
        type: 'string',
      },
      canonical_url: {
        type: 'string',
      },
      counts: {
        $ref: '#/definitions/UserCounts',
      },
      verified_domain: {
        type: 'string',
        description: 'Only when the user verified one.',
      },
      annotations: {
        type: 'array',
        items: {
          $ref: '#/definitions/Annotation',
        },
        description: 'Only when asked for (`include_annotations`, `include_user_annotations`).',
      },
    },
    required: [
      'avatar_image',
      'canonical_url',
      'counts',
      'cover_image',
      'created_at',
      'description',
      'id',
      'locale',
      'name',
      'pagination_id',
      'timezone',
      'type',
      'username',
    ],
    description: 'An item of a paginated list: it carries its place in the list.',
  },
  FilterObjectType: {
    type: 'string',
    enum: ['post', 'star', 'user_follow', 'mute', 'block', 'stream_marker', 'message', 'channel', 'channel_subscription', 'token', 'file'],
  },
  FilterOperator: {
    type: 'string',
    enum: ['equals', 'matches', 'lt', 'le', 'gt', 'ge', 'one_of'],
  },
  MatchPolicy: {
    type: 'string',
    enum: ['include_any', 'include_all', 'exclude_any', 'exclude_all'],
  },
  FilterClause: {
    type: 'object',
    properties: {
      object_type: {
        $ref: '#/definitions/FilterObjectType',
      },
      operator: {
        $ref: '#/definitions/FilterOperator',
      },
      field: {
        type: 'string',
        description: 'A JSON Pointer into the streamed message; a `*` segment stands for every element of a list.',
      },
      value: {
        anyOf: [
          {
            type: 'string',
          },
          {
            type: 'number',
          },
          {
            type: 'array',
            items: {
              type: ['string', 'number'],
            },
          },
        ],
        description: 'As the client gave it: a scalar, a list (`one_of`), or `$authorized_userids`.',
      },
    },
    required: ['object_type', 'operator', 'field', 'value'],
    additionalProperties: false,
  },
  Filter: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      name: {
        type: 'string',
      },
      match_policy: {
        $ref: '#/definitions/MatchPolicy',
      },
      clauses: {
        type: 'array',
        items: {
          $ref: '#/definitions/FilterClause',
        },
      },
      owner: {
        $ref: '#/definitions/User',
        description: "Left out for an app stream's own filter, and when the account is gone.",
      },
    },
    required: ['id', 'match_policy', 'clauses'],
    additionalProperties: false,
  },
  PlaceCategory: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      labels: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'General to specific.',
      },
    },
    required: ['id', 'labels'],
    additionalProperties: false,
    description: "The API's Place object (spec: Place).",
  },
  Place: {
    type: 'object',
    properties: {
      factual_id: {
        type: 'string',
        description: "The place's id, under the name App.net clients read.",
      },
      vendor_id: {
        type: 'string',
        description: "The same id, under the spec's name.",
      },
      name: {
        type: 'string',
      },
      address: {
        type: 'string',
      },
      address_extended: {
        type: 'string',
      },
      locality: {
        type: 'string',
      },
      region: {
        type: 'string',
      },
      admin_region: {
        type: 'string',
      },
      post_town: {
        type: 'string',
      },
      po_box: {
        type: 'string',
      },
      postcode: {
        type: 'string',
      },
      country_code: {
        type: 'string',
        description: 'ISO 3166-1 alpha-2.',
      },
      latitude: {
        type: 'number',
      },
      longitude: {
        type: 'number',
      },
      is_open: {
        type: 'boolean',
      },
      telephone: {
        type: 'string',
      },
      fax: {
        type: 'string',
      },
      website: {
        type: 'string',
      },
      categories: {
        type: 'array',
        items: {
          $ref: '#/definitions/PlaceCategory',
        },
      },
    },
    required: ['factual_id', 'vendor_id', 'name', 'latitude', 'longitude', 'is_open', 'categories'],
    additionalProperties: false,
  },
  PlaceHit: {
    type: 'object',
    properties: {
      factual_id: {
        type: 'string',
        description: "The place's id, under the name App.net clients read.",
      },
      vendor_id: {
        type: 'string',
        description: "The same id, under the spec's name.",
      },
      name: {
        type: 'string',
      },
      address: {
        type: 'string',
      },
      address_extended: {
        type: 'string',
      },
      locality: {
        type: 'string',
      },
      region: {
        type: 'string',
      },
      admin_region: {
        type: 'string',
      },
      post_town: {
        type: 'string',
      },
      po_box: {
        type: 'string',
      },
      postcode: {
        type: 'string',
      },
      country_code: {
        type: 'string',
        description: 'ISO 3166-1 alpha-2.',
      },
      latitude: {
        type: 'number',
      },
      longitude: {
        type: 'number',
      },
      is_open: {
        type: 'boolean',
      },
      telephone: {
        type: 'string',
      },
      fax: {
        type: 'string',
      },
      website: {
        type: 'string',
      },
      categories: {
        type: 'array',
        items: {
          $ref: '#/definitions/PlaceCategory',
        },
      },
      distance: {
        type: 'number',
      },
    },
    required: ['categories', 'distance', 'factual_id', 'is_open', 'latitude', 'longitude', 'name', 'vendor_id'],
    additionalProperties: false,
    description: 'A search result: the place and how far it is, in metres.',
  },
  AppStreamObjectType: {
    anyOf: [
      {
        $ref: '#/definitions/FilterObjectType',
      },
      {
        type: 'string',
        const: 'user',
      },
    ],
    description: "What an app stream carries: a filter's object types, and profile updates.",
  },
  AppStream: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
      },
      endpoint: {
        type: 'string',
        description: 'Where a consumer reads it; the address is itself the credential.',
      },
      object_types: {
        type: 'array',
        items: {
          $ref: '#/definitions/AppStreamObjectType',
        },
      },
      type: {
        type: 'string',
        const: 'long_poll',
      },
      filter: {
        $ref: '#/definitions/Filter',
        description: 'Only when the stream has one.',
      },
      key: {
        type: 'string',
        description: 'Only when the creator named it.',
      },
    },
    required: ['id', 'endpoint', 'object_types', 'type'],
    additionalProperties: false,
    description: 'The App stream resource.',
  },
  UserStreamEventType: {
    type: 'string',
    enum: ['post', 'interaction', 'user_follow', 'channel', 'channel_subscription', 'message', 'stream_marker', 'token', 'user', 'file'],
    description: '`meta.type` of a user stream event.',
  },
  UserStreamMeta: {
    type: 'object',
    properties: {
      code: {
        type: 'number',
      },
      error_message: {
        type: 'string',
        description: "On errors: meant for people; a 400's starts with `Bad Request: `.",
      },
      error_slug: {
        type: 'string',
        description: 'On some errors: a stable name for the cause (`invalid-token`, ...).',
      },
      error_id: {
        type: 'string',
        description: 'On errors: 32 hex digits naming this occurrence.',
      },
      more: {
        type: 'boolean',
        description: 'Paginated lists (spec rule 4).',
      },
      min_id: {
        type: 'string',
      },
      max_id: {
        type: 'string',
      },
      marker: {
        $ref: '#/definitions/Marker',
        description: 'Lists that have a stream marker (`unified`, `channel:<id>`, `explore:<slug>`, ...).',
      },
      explore_stream: {
        $ref: '#/definitions/ExploreStream',
        description: "An Explore stream's posts: the stream.",
      },
      unread_counts: {
        type: 'object',
        additionalProperties: {
          type: 'number',
        },
        description: "`GET /channels`' inbox: unread channels by type.",
      },
      subscription_ids: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'A call that subscribed a user stream (spec: Subscriptions on a user stream).',
      },
      connection_id: {
        type: 'string',
      },
      type: {
        $ref: '#/definitions/UserStreamEventType',
      },
      is_deleted: {
        type: 'boolean',
        const: true,
        description: "A deletion: the removed object's id.",
      },
      deleted_id: {
        type: 'string',
      },
    },
    required: ['code', 'connection_id', 'subscription_ids', 'type'],
    additionalProperties: false,
    description: "A user stream event's meta: the subscribed list's own, and the stream's.",
  },
  UserStreamConnection: {
    type: 'object',
    properties: {
      meta: {
        type: 'object',
        properties: {
          connection_id: {
            type: 'string',
          },
        },
        required: ['connection_id'],
        additionalProperties: false,
      },
    },
    required: ['meta'],
    additionalProperties: false,
    description: 'The first frame of a WebSocket user stream: its connection id, alone.',
  },
  UserStreamEnd: {
    type: 'object',
    properties: {
      meta: {
        type: 'object',
        properties: {
          code: {
            type: 'number',
          },
          disconnected: {
            type: 'boolean',
            const: true,
          },
          error_message: {
            type: 'string',
          },
        },
        required: ['code', 'disconnected', 'error_message'],
        additionalProperties: false,
      },
    },
    required: ['meta'],
    additionalProperties: false,
    description: 'The last line of an HTTP user stream the server ends, saying why.',
  },
  AppStreamMeta: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
        description: "Opaque: the object's id, or `<user_id>:<other_id>` for relations.",
      },
      type: {
        $ref: '#/definitions/AppStreamObjectType',
      },
      is_deleted: {
        type: 'boolean',
      },
      timestamp: {
        type: 'number',
        description: 'Unix time in milliseconds.',
      },
      channel_id: {
        type: 'string',
      },
      channel_type: {
        type: 'string',
      },
      subscribed_user_ids: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      user_id: {
        type: 'string',
      },
      suppress_notifications: {
        type: 'array',
        items: {
          type: 'string',
        },
        description: 'Users a notification service must not notify about this event.',
      },
      suppress_notifications_all: {
        type: 'boolean',
        description: 'Nobody is to be notified.',
      },
    },
    required: ['id', 'type', 'is_deleted', 'timestamp', 'suppress_notifications', 'suppress_notifications_all'],
    additionalProperties: false,
    description: "An app stream event's meta (spec: App stream).",
  },
  TokenEventData: {
    type: 'object',
    properties: {
      scopes: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      app: {
        $ref: '#/definitions/Source',
      },
      client_id: {
        type: 'string',
      },
      user: {
        $ref: '#/definitions/User',
      },
    },
    required: ['scopes', 'app', 'client_id'],
    additionalProperties: false,
    description: 'The `data` of a `token` event: the token as its user authorized it.',
  },
  AppStreamEventData: {
    anyOf: [
      {
        $ref: '#/definitions/Post',
      },
      {
        $ref: '#/definitions/Message',
      },
      {
        $ref: '#/definitions/Channel',
      },
      {
        $ref: '#/definitions/User',
      },
      {
        $ref: '#/definitions/File',
      },
      {
        type: 'object',
        properties: {
          post: {
            $ref: '#/definitions/Post',
          },
          user: {
            $ref: '#/definitions/User',
          },
        },
        required: ['post', 'user'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          follows_user: {
            $ref: '#/definitions/User',
          },
          user: {
            $ref: '#/definitions/User',
          },
        },
        required: ['follows_user', 'user'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          muted_user: {
            $ref: '#/definitions/User',
          },
          user: {
            $ref: '#/definitions/User',
          },
        },
        required: ['muted_user', 'user'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          blocked_user: {
            $ref: '#/definitions/User',
          },
          user: {
            $ref: '#/definitions/User',
          },
        },
        required: ['blocked_user', 'user'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          marker: {
            $ref: '#/definitions/Marker',
          },
          user: {
            $ref: '#/definitions/User',
          },
        },
        required: ['marker', 'user'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          user: {
            $ref: '#/definitions/User',
          },
          channel: {
            $ref: '#/definitions/Channel',
          },
        },
        required: ['user', 'channel'],
        additionalProperties: false,
      },
      {
        $ref: '#/definitions/TokenEventData',
      },
      {
        type: 'null',
      },
    ],
    description: "An app stream event's `data`, by `meta.type` (spec: the app stream table); null where the table says none.",
  },
  AppStreamEvent: {
    type: 'object',
    properties: {
      meta: {
        $ref: '#/definitions/AppStreamMeta',
      },
      data: {
        $ref: '#/definitions/AppStreamEventData',
      },
    },
    required: ['meta', 'data'],
    additionalProperties: false,
  },
  AppStreamControl: {
    type: 'object',
    properties: {
      control: {
        type: 'object',
        properties: {
          type: {
            type: 'string',
          },
          message: {
            type: 'string',
          },
        },
        required: ['type', 'message'],
        additionalProperties: {},
      },
    },
    required: ['control'],
    additionalProperties: false,
    description: 'A message about the stream itself (a warning, an overflow, a disconnection), not an event.',
  },
  ProcessedText: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
      },
      html: {
        type: 'string',
      },
      entities: {
        $ref: '#/definitions/Entities',
      },
    },
    required: ['text', 'html', 'entities'],
    additionalProperties: false,
  },
  AccessTokenGrant: {
    type: 'object',
    properties: {
      access_token: {
        type: 'string',
      },
      token: {
        $ref: '#/definitions/Token',
      },
      username: {
        type: 'string',
      },
      user_id: {
        type: 'string',
      },
    },
    required: ['access_token', 'token'],
    additionalProperties: false,
    description: '`POST /oauth/access_token` granting an access token; `username` and `user_id` for user tokens.',
  },
  DelegateTokenGrant: {
    type: 'object',
    properties: {
      delegate_token: {
        type: 'string',
      },
    },
    required: ['delegate_token'],
    additionalProperties: false,
    description: '`POST /oauth/access_token` with `grant_type=delegate` (spec: identity delegation).',
  },
  OAuthErrorCode: {
    type: 'string',
    enum: [
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'unauthorized_client',
      'unsupported_grant_type',
      'unsupported_response_type',
      'invalid_token',
      'access_denied',
      'temporarily_unavailable',
    ],
    description: "RFC 6749's error codes, as the token endpoint answers them.",
  },
  OAuthError: {
    type: 'object',
    properties: {
      error: {
        $ref: '#/definitions/OAuthErrorCode',
      },
      error_description: {
        type: 'string',
      },
      error_slug: {
        type: 'string',
      },
    },
    required: ['error', 'error_description'],
    additionalProperties: false,
    description: "The token endpoint's error body (RFC 6749 §5.2), with svc's slug when the cause has one.",
  },
  UserRelation: {
    type: 'object',
    properties: {
      follows_you: {
        type: 'boolean',
      },
      you_blocked: {
        type: 'boolean',
      },
      you_follow: {
        type: 'boolean',
      },
      you_muted: {
        type: 'boolean',
      },
      you_can_subscribe: {
        type: 'boolean',
      },
      you_can_follow: {
        type: 'boolean',
      },
      follow_pending: {
        type: 'boolean',
        description: 'Only on a remote account (`username` is `name@server`): the viewer asked to follow it and its server has not accepted yet.',
      },
      is_following: {
        type: 'boolean',
        description: 'Deprecated names (spec, Versioning 3): `you_follow`, `follows_you`, `you_muted`, still read by older clients.',
      },
      is_follower: {
        type: 'boolean',
      },
      is_muted: {
        type: 'boolean',
      },
    },
    required: ['follows_you', 'you_blocked', 'you_follow', 'you_muted', 'you_can_subscribe', 'you_can_follow', 'is_following', 'is_follower', 'is_muted'],
    additionalProperties: false,
    description: "What the requesting user's token sees of its relation to this user: all of these, or none (an anonymous request, the viewer's own account).",
  },
}
