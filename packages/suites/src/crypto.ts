import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Secrets at rest: AES-256-GCM with a fresh 12-byte IV per write; the suite's id and
// tenant are the additional authenticated data, so a sealed blob copied onto another
// suite (or tenant) does not open.

export interface Sealed {
  v: 1;
  iv: string;
  tag: string;
  data: string;
}

export function seal(key: Buffer, plaintext: string, aad: string): Sealed {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad));
  const data = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return { v: 1, iv: iv.toString('base64'), tag: c.getAuthTag().toString('base64'), data: data.toString('base64') };
}

export function open(key: Buffer, sealed: Sealed, aad: string): string {
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  d.setAAD(Buffer.from(aad));
  d.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([d.update(Buffer.from(sealed.data, 'base64')), d.final()]).toString('utf8');
}

/** Seals a run's secret variables into its record, opened only by the worker running it. */
export function secretsBox(key: Buffer | null): { seal(values: Record<string, string>, aad: string): Sealed; open(sealed: unknown, aad: string): Record<string, string> } | null {
  if (!key) return null;
  return {
    seal: (values, aad) => seal(key, JSON.stringify(values), aad),
    open: (sealed, aad) => JSON.parse(open(key, sealed as Sealed, aad)) as Record<string, string>,
  };
}
