import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FoundCode, FoundLink } from './extract.js';

// Inboxes live in Redis with a TTL, so any node's SMTP listener can take mail for an
// inbox created through any node, and they vanish on their own. The id is the address's
// local part: random and unguessable, yet every read still checks the tenant.

export interface Inbox {
  id: string;
  tenant: string;
  address: string;
  createdAt: string;
  expiresAt: string;
  messages: number;
}

export interface StoredMessage {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  /** The plain-text body, or the HTML body rendered as text when there is no text part. */
  text: string;
  /** true when `text` was rendered from HTML. */
  fromHtml: boolean;
  links: FoundLink[];
  code: FoundCode | null;
  link: FoundLink | null;
  size: number;
}

export interface InboxLimits {
  ttlSeconds: number;
  maxMessages: number;
}

export class InboxFullError extends Error {}

const ADDRESS_CHARS = 'abcdefghijklmnopqrstuvwxyz234567';

function localPart(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const b of bytes) out += ADDRESS_CHARS[b & 31];
  return out;
}

export class InboxStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly domain: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}inbox:${id}`;
  }

  private messagesKey(id: string): string {
    return `${this.prefix}inbox:${id}:messages`;
  }

  private tenantKey(tenant: string): string {
    return `${this.prefix}inboxes:${tenant}`;
  }

  async create(tenant: string, ttlSeconds: number): Promise<Inbox> {
    const id = localPart();
    const now = Date.now();
    const inbox: Inbox = {
      id,
      tenant,
      address: `${id}@${this.domain}`,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + ttlSeconds * 1000).toISOString(),
      messages: 0,
    };
    await this.redis
      .multi()
      .hset(this.key(id), { tenant, address: inbox.address, createdAt: inbox.createdAt, expiresAt: inbox.expiresAt, messages: 0 })
      .expire(this.key(id), ttlSeconds)
      .zadd(this.tenantKey(tenant), now + ttlSeconds * 1000, id)
      .exec();
    return inbox;
  }

  /** The inbox if it exists and belongs to the tenant (another tenant's inbox is "not there"). */
  async get(tenant: string, id: string): Promise<Inbox | null> {
    const inbox = await this.byId(id);
    return inbox && inbox.tenant === tenant ? inbox : null;
  }

  async byId(id: string): Promise<Inbox | null> {
    if (!/^[a-z2-7]{16}$/.test(id)) return null;
    const h = await this.redis.hgetall(this.key(id));
    if (!h.tenant) return null;
    return { id, tenant: h.tenant, address: h.address, createdAt: h.createdAt, expiresAt: h.expiresAt, messages: Number(h.messages ?? 0) };
  }

  /** The inbox an address belongs to, for the SMTP listener (domain compared case-insensitively). */
  async byAddress(address: string): Promise<Inbox | null> {
    const at = address.lastIndexOf('@');
    if (at <= 0) return null;
    if (address.slice(at + 1).toLowerCase() !== this.domain.toLowerCase()) return null;
    return this.byId(address.slice(0, at).toLowerCase());
  }

  async list(tenant: string, limit = 100): Promise<Inbox[]> {
    await this.redis.zremrangebyscore(this.tenantKey(tenant), '-inf', Date.now());
    const ids = await this.redis.zrange(this.tenantKey(tenant), 0, limit - 1);
    const all = await Promise.all(ids.map((id) => this.get(tenant, id)));
    return all.filter((i): i is Inbox => i !== null);
  }

  /** Stores a message; InboxFullError when the inbox already holds maxMessages. */
  async addMessage(inbox: Inbox, message: StoredMessage, maxMessages: number): Promise<void> {
    const count = await this.redis.hincrby(this.key(inbox.id), 'messages', 1);
    if (count > maxMessages) {
      await this.redis.hincrby(this.key(inbox.id), 'messages', -1);
      throw new InboxFullError(`inbox ${inbox.address} is full (${maxMessages} messages)`);
    }
    const ttl = Math.max(1, Math.ceil((Date.parse(inbox.expiresAt) - Date.now()) / 1000));
    await this.redis.multi().rpush(this.messagesKey(inbox.id), JSON.stringify(message)).expire(this.messagesKey(inbox.id), ttl).exec();
  }

  async messages(inbox: Inbox): Promise<StoredMessage[]> {
    const raw = await this.redis.lrange(this.messagesKey(inbox.id), 0, -1);
    return raw.map((r) => JSON.parse(r) as StoredMessage);
  }

  /**
   * Waits (polling Redis, so mail taken by any node counts) until the inbox holds a
   * message past index `after` that passes `match`; null when none came by the deadline.
   */
  async waitForMessage(inbox: Inbox, opts: { after?: number; timeoutMs: number; match?: (m: StoredMessage) => boolean; signal?: AbortSignal }): Promise<StoredMessage | null> {
    const deadline = Date.now() + opts.timeoutMs;
    for (;;) {
      const raw = await this.redis.lrange(this.messagesKey(inbox.id), opts.after ?? 0, -1);
      for (const r of raw) {
        const m = JSON.parse(r) as StoredMessage;
        if (!opts.match || opts.match(m)) return m;
      }
      if (Date.now() >= deadline || opts.signal?.aborted) return null;
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, Math.max(0, deadline - Date.now()))));
    }
  }

  async delete(inbox: Inbox): Promise<void> {
    await this.redis.multi().del(this.key(inbox.id), this.messagesKey(inbox.id)).zrem(this.tenantKey(inbox.tenant), inbox.id).exec();
  }
}

export function newMessageId(): string {
  return randomBytes(8).toString('hex');
}
