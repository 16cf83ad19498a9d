import { Type, type Static } from 'typebox';

// Schemas for sessions, roles and tabs. They validate requests in Fastify, document
// the API in openapi.yaml, and type the server code: one definition for all three.

export const RoleName = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'Role name: letters, digits, _ and -, at most 64 characters.',
});

export const Viewport = Type.Object(
  {
    width: Type.Integer({ minimum: 200, maximum: 7680 }),
    height: Type.Integer({ minimum: 200, maximum: 4320 }),
  },
  { additionalProperties: false },
);

export const Cookie = Type.Object({
  name: Type.String({ minLength: 1 }),
  value: Type.String(),
  domain: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  expires: Type.Optional(Type.Number()),
  httpOnly: Type.Optional(Type.Boolean()),
  secure: Type.Optional(Type.Boolean()),
  sameSite: Type.Optional(Type.Union([Type.Literal('Strict'), Type.Literal('Lax'), Type.Literal('None')])),
});

export const StorageState = Type.Object(
  {
    cookies: Type.Array(Cookie, { maxItems: 1000 }),
    origins: Type.Array(
      Type.Object({
        origin: Type.String(),
        localStorage: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }), { maxItems: 5000 }),
      }),
      { maxItems: 200 },
    ),
  },
  { description: 'Playwright storage state (cookies and localStorage per origin).' },
);

export const RoleSpec = Type.Object(
  {
    name: RoleName,
    storageState: Type.Optional(StorageState),
    viewport: Type.Optional(Viewport),
    userAgent: Type.Optional(Type.String({ maxLength: 1024 })),
    locale: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' })),
    timezoneId: Type.Optional(Type.String({ maxLength: 64 })),
    extraHTTPHeaders: Type.Optional(Type.Record(Type.String(), Type.String())),
    baseURL: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);
export type RoleSpec = Static<typeof RoleSpec>;

export const CreateSessionBody = Type.Object(
  {
    roles: Type.Optional(Type.Array(RoleSpec, { minItems: 1, maxItems: 16 })),
    idleTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400 })),
    ttlSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 * 86400 })),
    queueTimeoutSeconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 3600, description: 'How long to wait for a free browser slot (default QUEUE_TIMEOUT_SECONDS); 0 = fail at once when full.' }),
    ),
    metadata: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 256 }))),
  },
  { additionalProperties: false },
);
export type CreateSessionBody = Static<typeof CreateSessionBody>;

export const PageInfo = Type.Object({
  id: Type.String({ description: 'Tab id, stable for the life of the tab.' }),
  url: Type.String(),
  title: Type.String(),
  active: Type.Boolean({ description: 'The tab page operations use when no ?page= is given.' }),
  openerId: Type.Optional(Type.String({ description: 'The tab that opened this one (popups).' })),
});
export type PageInfo = Static<typeof PageInfo>;

export const RoleInfo = Type.Object({
  name: Type.String(),
  viewport: Viewport,
  browserId: Type.Optional(Type.String({ description: "The pool browser holding this role's context (GET /v1/pool lists them)." })),
  pages: Type.Array(PageInfo),
});
export type RoleInfo = Static<typeof RoleInfo>;

export const SessionStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('crashed'),
  Type.Literal('expired'),
  Type.Literal('closed'),
  Type.Literal('lost'),
]);
export type SessionStatus = Static<typeof SessionStatus>;

export const Session = Type.Object({
  id: Type.String(),
  tenant: Type.String(),
  status: SessionStatus,
  node: Type.String({ description: 'The node that owns the browser contexts.' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time', description: 'Absolute end of life (TTL).' }),
  idleTimeoutSeconds: Type.Integer(),
  metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
  roles: Type.Array(RoleInfo),
});
export type Session = Static<typeof Session>;

export const SessionList = Type.Object({
  sessions: Type.Array(Session),
  total: Type.Integer(),
});

export const SessionParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const RoleParams = Type.Object({ id: Type.String({ maxLength: 64 }), role: RoleName });
export const TabParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  role: RoleName,
  pageId: Type.String({ maxLength: 64 }),
});

export const OpenTabBody = Type.Object(
  { url: Type.Optional(Type.String({ maxLength: 8192 })) },
  { additionalProperties: false },
);

export const TabList = Type.Object({ pages: Type.Array(PageInfo) });
