import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal, signAriadne, verifyAriadne, verifyGitHub, verifyVercel } from '@ariadne/suites';

// Unit tests of the pure parts of issue 13: webhook signature checks at their edges and
// the sealing of secrets at rest (the HTTP behaviour is in hooks.test.ts / suites.test.ts).

const body = Buffer.from('{"a":1}');

describe('X-Ariadne-Signature (t=,v1=)', () => {
  const now = 1_800_000_000;
  it('accepts up to 300 s either way and refuses beyond, only after the MAC matched', () => {
    expect(verifyAriadne('s3cret', body, signAriadne('s3cret', body, now - 300), now)).toEqual({ ok: true });
    expect(verifyAriadne('s3cret', body, signAriadne('s3cret', body, now + 300), now)).toEqual({ ok: true });
    expect(verifyAriadne('s3cret', body, signAriadne('s3cret', body, now - 301), now)).toMatchObject({ ok: false, reason: 'expired' });
    expect(verifyAriadne('s3cret', body, signAriadne('s3cret', body, now + 301), now)).toMatchObject({ ok: false, reason: 'expired' });
    // A stale timestamp with a wrong MAC is a mismatch, not "expired".
    expect(verifyAriadne('other', body, signAriadne('s3cret', body, now - 1000), now)).toMatchObject({ ok: false, reason: 'mismatch' });
  });
  it('accepts any of several v1 values (secret rotation) and signs "t.body"', () => {
    const t = now;
    const good = createHmac('sha256', 'new').update(`${t}.`).update(body).digest('hex');
    const old = createHmac('sha256', 'old').update(`${t}.`).update(body).digest('hex');
    expect(verifyAriadne('new', body, `t=${t},v1=${old},v1=${good}`, now)).toEqual({ ok: true });
    expect(verifyAriadne('new', body, `t=${t},v1=${old}`, now)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verifyAriadne('new', body, `v1=${good}`, now)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(verifyAriadne('new', body, `t=abc,v1=${good}`, now)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(verifyAriadne('new', body, undefined, now)).toMatchObject({ ok: false, reason: 'missing' });
  });
});

describe('platform signatures', () => {
  it('GitHub: sha256= over the exact bytes, either hex case', () => {
    const sig = createHmac('sha256', 'k').update(body).digest('hex');
    expect(verifyGitHub('k', body, `sha256=${sig}`)).toEqual({ ok: true });
    expect(verifyGitHub('k', body, `sha256=${sig.toUpperCase()}`)).toEqual({ ok: true });
    expect(verifyGitHub('k', Buffer.from('{"a": 1}'), `sha256=${sig}`)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verifyGitHub('k', body, `sha1=${sig.slice(0, 40)}`)).toMatchObject({ ok: false, reason: 'malformed' });
  });
  it('Vercel: hex HMAC-SHA1', () => {
    expect(verifyVercel('k', body, createHmac('sha1', 'k').update(body).digest('hex'))).toEqual({ ok: true });
    expect(verifyVercel('k', body, createHmac('sha1', 'x').update(body).digest('hex'))).toMatchObject({ ok: false, reason: 'mismatch' });
  });
});

describe('secrets at rest', () => {
  it('AES-256-GCM: opens with the same key and suite only; the ciphertext does not hold the value', () => {
    const key = randomBytes(32);
    const sealed = seal(key, '{"TOKEN":"hunter2-value"}', 'suite:t:1');
    expect(JSON.stringify(sealed)).not.toContain('hunter2');
    expect(open(key, sealed, 'suite:t:1')).toBe('{"TOKEN":"hunter2-value"}');
    expect(() => open(key, sealed, 'suite:t:2')).toThrow();
    expect(() => open(randomBytes(32), sealed, 'suite:t:1')).toThrow();
    expect(seal(key, 'x', 'a').iv).not.toBe(seal(key, 'x', 'a').iv);
  });
});

describe('SECRETS_KEY', () => {
  it('takes 32 bytes as hex or base64 and refuses anything else without echoing it', async () => {
    const { loadConfig } = await import('@ariadne/server');
    const hex = randomBytes(32).toString('hex');
    expect(loadConfig({ SECRETS_KEY: hex }).suites.secretsKey?.toString('hex')).toBe(hex);
    expect(loadConfig({ SECRETS_KEY: Buffer.from(hex, 'hex').toString('base64') }).suites.secretsKey?.toString('hex')).toBe(hex);
    expect(loadConfig({}).suites.secretsKey).toBeNull();
    let message = '';
    try {
      loadConfig({ SECRETS_KEY: 'too-short-key-value' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('SECRETS_KEY');
    expect(message).not.toContain('too-short-key-value');
  });
});
