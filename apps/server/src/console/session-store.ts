import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withRedis } from '@ariadne/cluster';

// Console sign-ins, kept server-side in Redis. The browser holds only a random id in an
// httpOnly cookie; Redis holds, under the id's SHA-256 (so reading Redis gives no usable
// cookie), the tenant, the digest of the key that signed in (a key removed from the
// configuration ends its sign-ins) and the CSRF token of the sign-in. Expiring; sign-out
// deletes the record, so a copied cookie stops working at once.

export interface ConsoleSignIn {
  tenant: string;
  /** SHA-256 (hex) of the API key that signed in. */
  keyDigest: string;
  csrf: string;
  createdAt: string;
  expiresAt: string;
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Constant-time comparison of two tokens of any length. */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}

export class ConsoleSessionStore {
  constructor(private readonly redis: Redis, private readonly prefix: string, readonly ttlSeconds: number) {}

  private key(id: string) {
    return `${this.prefix}console:signin:${sha256(id)}`;
  }

  /** A new sign-in: the cookie value (returned once) and its record. */
  async create(tenant: string, keyDigest: string): Promise<{ id: string; signIn: ConsoleSignIn }> {
    const id = randomToken();
    const now = Date.now();
    const signIn: ConsoleSignIn = {
      tenant,
      keyDigest,
      csrf: randomToken(),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.ttlSeconds * 1000).toISOString(),
    };
    await withRedis(() => this.redis.set(this.key(id), JSON.stringify(signIn), 'EX', this.ttlSeconds));
    return { id, signIn };
  }

  async get(id: string | undefined): Promise<ConsoleSignIn | null> {
    if (!id || !/^[\w-]{20,100}$/.test(id)) return null;
    const raw = await withRedis(() => this.redis.get(this.key(id)));
    if (!raw) return null;
    const s = JSON.parse(raw) as ConsoleSignIn;
    return Date.parse(s.expiresAt) > Date.now() ? s : null;
  }

  async revoke(id: string | undefined): Promise<void> {
    if (!id || !/^[\w-]{20,100}$/.test(id)) return;
    await withRedis(() => this.redis.del(this.key(id)));
  }
}

/** The cookies of a request, by name (first one wins). */
export function cookiesOf(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    if (!out.has(name)) out.set(name, part.slice(i + 1).trim());
  }
  return out;
}

export function cookieHeader(name: string, value: string, opts: { maxAge: number; secure: boolean; path?: string }): string {
  return [
    `${name}=${value}`,
    `Path=${opts.path ?? '/'}`,
    `Max-Age=${opts.maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
}
