import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, ErrorResponse } from '@ariadne/schema';
import { InboxStore, type Inbox, type StoredMessage } from '@ariadne/inbox';
import type { ServerDeps } from '../deps.js';

// Disposable inboxes for flows that sign up: create an address, read what arrives
// (with the verification code and the confirmation link already found), delete it.
// Tenant-scoped like sessions: another tenant's inbox is 404, exactly like a missing one.

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

const InboxSchema = Type.Object({
  id: Type.String(),
  address: Type.String({ description: 'Send mail here (the service must receive mail for its domain: SMTP_PORT, INBOX_DOMAIN).' }),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  messages: Type.Integer({ description: 'Messages received so far.' }),
});

const FoundCode = Type.Object({
  code: Type.String(),
  rule: Type.String({ description: 'keyword: near a word such as "code", "OTP", "verification"; subject: the subject\'s only number; only-number: the body\'s only 4-8 digit number.' }),
  context: Type.String({ description: 'The text around the code.' }),
});
const FoundLink = Type.Object({
  url: Type.String(),
  text: Type.Optional(Type.String()),
  rule: Type.String({ description: 'keyword: the link says verify/confirm/activate/sign in; first-link: the first link that is not an unsubscribe/privacy/tracking one.' }),
});

const MessageSchema = Type.Object({
  id: Type.String(),
  receivedAt: Type.String(),
  from: Type.String(),
  to: Type.Array(Type.String()),
  subject: Type.String(),
  text: Type.String({ description: 'The text body, or the HTML body as text when there is no text part (fromHtml).' }),
  fromHtml: Type.Boolean(),
  links: Type.Array(FoundLink),
  code: Type.Union([FoundCode, Type.Null()], { description: 'The verification code found in the message, and the rule that found it.' }),
  link: Type.Union([FoundLink, Type.Null()], { description: 'The confirmation (or magic sign-in) link, and the rule that found it.' }),
  size: Type.Integer(),
});

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

function view(i: Inbox) {
  return { id: i.id, address: i.address, createdAt: i.createdAt, expiresAt: i.expiresAt, messages: i.messages };
}

export const inboxRoutes = (deps: ServerDeps): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const cfg = deps.config.inbox;
  const store = deps.inboxes ?? new InboxStore(deps.redis, deps.config.redisPrefix, cfg.domain);

  async function find(tenant: string, id: string): Promise<Inbox> {
    const inbox = await store.get(tenant, id);
    if (!inbox) throw new AppError('inbox_not_found', `No inbox ${id} for this tenant (it may have expired).`, { id });
    return inbox;
  }

  app.post('/v1/inboxes', {
    schema: {
      tags: ['inboxes'],
      summary: 'Create a disposable inbox (an address that receives mail for this tenant until it expires)',
      body: Type.Optional(Type.Object({
        ttlSeconds: Type.Optional(Type.Integer({ minimum: 2, maximum: 7 * 86400, description: 'Lifetime of the inbox and its messages (default INBOX_TTL_SECONDS).' })),
      }, { additionalProperties: false })),
      response: { 201: InboxSchema, ...errors },
    },
  }, async (req, reply) => {
    if (cfg.smtpPort === null) {
      throw new AppError('inbox_disabled', 'Inboxes are off on this service: the operator sets SMTP_PORT (and INBOX_DOMAIN) to receive mail.', { setting: 'SMTP_PORT' });
    }
    const inbox = await store.create(req.tenant, req.body?.ttlSeconds ?? cfg.ttlSeconds);
    return reply.status(201).send(view(inbox));
  });

  app.get('/v1/inboxes', {
    schema: { tags: ['inboxes'], summary: "List this tenant's inboxes", response: { 200: Type.Object({ inboxes: Type.Array(InboxSchema) }) } },
  }, async (req) => ({ inboxes: (await store.list(req.tenant)).map(view) }));

  app.get('/v1/inboxes/:id', {
    schema: { tags: ['inboxes'], summary: 'Get an inbox', params: IdParams, response: { 200: InboxSchema, ...errors } },
  }, async (req) => view(await find(req.tenant, req.params.id)));

  app.get('/v1/inboxes/:id/messages', {
    schema: {
      tags: ['inboxes'],
      summary: "An inbox's messages, oldest first, with the code and the confirmation link found in each",
      description: 'With waitSeconds, answers as soon as a message past `after` (matching `subject`/`from` when given) arrives, or with what there is when the time is up.',
      params: IdParams,
      querystring: Type.Object({
        waitSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 60, description: 'Wait up to this long for a new message.' })),
        after: Type.Optional(Type.Integer({ minimum: 0, description: 'Only messages after the first N (e.g. the count you already have).' })),
        subject: Type.Optional(Type.String({ maxLength: 500, description: 'Only messages whose subject contains this (case-insensitive).' })),
        from: Type.Optional(Type.String({ maxLength: 500, description: 'Only messages whose sender contains this (case-insensitive).' })),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ inbox: InboxSchema, messages: Type.Array(MessageSchema), waited: Type.Boolean() }), ...errors },
    },
  }, async (req) => {
    const inbox = await find(req.tenant, req.params.id);
    const { waitSeconds = 0, after = 0, subject, from } = req.query;
    const match = (m: StoredMessage) =>
      (!subject || m.subject.toLowerCase().includes(subject.toLowerCase())) && (!from || m.from.toLowerCase().includes(from.toLowerCase()));
    let waited = false;
    if (waitSeconds > 0) {
      // Stop waiting when the client goes away.
      const gone = new AbortController();
      req.raw.once('close', () => gone.abort());
      waited = true;
      await store.waitForMessage(inbox, { after, timeoutMs: waitSeconds * 1000, match, signal: gone.signal });
    }
    const fresh = (await store.get(req.tenant, inbox.id)) ?? inbox;
    const messages = (await store.messages(fresh)).slice(after).filter(match);
    return { inbox: view(fresh), messages, waited };
  });

  app.delete('/v1/inboxes/:id', {
    schema: { tags: ['inboxes'], summary: 'Delete an inbox and its messages', params: IdParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await store.delete(await find(req.tenant, req.params.id));
    return reply.status(204).send(null);
  });
};
