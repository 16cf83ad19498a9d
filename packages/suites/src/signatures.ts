import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// Inbound webhook signatures, checked over the exact raw body bytes, compared in
// constant time. Each check answers why it failed so the route can give a stable code.

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' | 'expired'; message: string };

function equalHex(expected: Buffer, presentedHex: string): boolean {
  if (!/^[0-9a-fA-F]+$/.test(presentedHex) || presentedHex.length !== expected.length * 2) return false;
  return timingSafeEqual(expected, Buffer.from(presentedHex, 'hex'));
}

/** GitHub: X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>. */
export function verifyGitHub(secret: string, body: Buffer, header: string | undefined): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing', message: 'Missing X-Hub-Signature-256.' };
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!m) return { ok: false, reason: 'malformed', message: 'X-Hub-Signature-256 must be sha256=<64 hex digits>.' };
  const expected = createHmac('sha256', secret).update(body).digest();
  return equalHex(expected, m[1]) ? { ok: true } : { ok: false, reason: 'mismatch', message: 'X-Hub-Signature-256 does not match the body.' };
}

export const GENERIC_TOLERANCE_SECONDS = 300;

/** Ariadne's scheme (inbound generic hooks, outbound callbacks): t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">. */
export function signAriadne(secret: string, body: Buffer | string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${nowSeconds}.`).update(body).digest('hex');
  return `t=${nowSeconds},v1=${mac}`;
}

export function verifyAriadne(secret: string, body: Buffer, header: string | undefined, nowSeconds = Math.floor(Date.now() / 1000), tolerance = GENERIC_TOLERANCE_SECONDS): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing', message: 'Missing X-Ariadne-Signature.' };
  const parts = new Map<string, string[]>();
  for (const p of header.split(',')) {
    const i = p.indexOf('=');
    if (i <= 0) continue;
    const k = p.slice(0, i).trim();
    parts.set(k, [...(parts.get(k) ?? []), p.slice(i + 1).trim()]);
  }
  const t = parts.get('t')?.[0];
  const sigs = parts.get('v1') ?? [];
  if (!t || !/^\d{1,12}$/.test(t) || !sigs.length) return { ok: false, reason: 'malformed', message: 'X-Ariadne-Signature must be t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">.' };
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  // Several v1 values are allowed (secret rotation); any match counts, all are compared.
  let match = false;
  for (const s of sigs) if (equalHex(expected, s)) match = true;
  if (!match) return { ok: false, reason: 'mismatch', message: 'X-Ariadne-Signature does not match the body.' };
  // Checked after the MAC, so the timestamp a caller is told about is one it signed.
  if (Math.abs(nowSeconds - Number(t)) > tolerance) return { ok: false, reason: 'expired', message: `The signature's timestamp is more than ${tolerance} s away from the server's clock (a replay, or a clock to fix).` };
  return { ok: true };
}

/** Vercel: x-vercel-signature: <hex HMAC-SHA1 of the raw body>. */
export function verifyVercel(secret: string, body: Buffer, header: string | undefined): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing', message: 'Missing x-vercel-signature.' };
  if (!/^[0-9a-fA-F]{40}$/.test(header.trim())) return { ok: false, reason: 'malformed', message: 'x-vercel-signature must be 40 hex digits (HMAC-SHA1).' };
  const expected = createHmac('sha1', secret).update(body).digest();
  return equalHex(expected, header.trim()) ? { ok: true } : { ok: false, reason: 'mismatch', message: 'x-vercel-signature does not match the body.' };
}

const b64url = (b: Buffer) => b.toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/**
 * Netlify: x-webhook-signature is a JWS (HS256, signed with the secret) whose claims
 * say iss: "netlify" and sha256: <hex SHA-256 of the raw body>.
 */
export function verifyNetlify(secret: string, body: Buffer, header: string | undefined): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing', message: 'Missing x-webhook-signature.' };
  const parts = header.trim().split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed', message: 'x-webhook-signature must be a JWT (header.claims.signature).' };
  let head: { alg?: unknown };
  let claims: { iss?: unknown; sha256?: unknown };
  try {
    head = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed', message: 'x-webhook-signature is not a readable JWT.' };
  }
  // Only HS256: never "none", never an algorithm the token picks for itself.
  if (head.alg !== 'HS256') return { ok: false, reason: 'malformed', message: 'x-webhook-signature must be signed with HS256.' };
  const expected = Buffer.from(b64url(createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest()));
  const presented = Buffer.from(parts[2]);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return { ok: false, reason: 'mismatch', message: 'x-webhook-signature is not signed with this trigger\'s secret.' };
  if (claims.iss !== 'netlify') return { ok: false, reason: 'mismatch', message: 'x-webhook-signature was not issued by netlify.' };
  const digest = createHash('sha256').update(body).digest();
  if (typeof claims.sha256 !== 'string' || !equalHex(digest, claims.sha256)) return { ok: false, reason: 'mismatch', message: 'x-webhook-signature does not match the body (sha256 claim).' };
  return { ok: true };
}
