import { describe, expect, it } from 'vitest';
import { addSecretValues, looksLikeToken, mapStrings, redactRequestUrl, redactText, redactValues } from '../../apps/server/src/security/redact.js';
import { withoutTenantSeries } from '../../apps/server/src/security/public-metrics.js';

// Unit tests of the pure redaction rules (the service-level proof is in
// auth-bypass.test.ts and logs-and-errors.test.ts).

const KEY = 'k3y-0123456789abcdef';

describe('redactRequestUrl', () => {
  it('redacts credential parameters after decoding their names and values', () => {
    for (const url of [`/v1/x?token=${KEY}`, `/v1/x?%74oken=${KEY}`, `/v1/x?%74%6f%6b%65%6e=${encodeURIComponent(KEY)}`, `/v1/x?TOKEN=${KEY}`, `/v1/x?a=1&token=${KEY}&token=${KEY}`, `/v1/x?api_key=${KEY}`]) {
      const out = redactRequestUrl(url);
      expect(out, url).not.toContain(KEY);
      expect(out).toContain('[redacted]');
    }
    expect(redactRequestUrl('/v1/sessions/s1/snapshot?format=text&page=p2')).toBe('/v1/sessions/s1/snapshot?format=text&page=p2');
    expect(redactRequestUrl('/healthz')).toBe('/healthz');
  });

  it('redacts credential-like names (api-key, apiToken, client_secret, x-api-key, bearer) and token-shaped values under any name', () => {
    for (const name of ['api-key', 'apiToken', 'access-token', 'client_secret', 'x-api-key', 'bearer', 'Authorization', 'sig', 'password']) {
      expect(redactRequestUrl(`/v1/x?${name}=short`), name).toBe(`/v1/x?${name}=[redacted]`);
    }
    expect(redactRequestUrl('/v1/x?q=sk-ant-api03-AbCdEf0123456789')).toBe('/v1/x?q=[redacted]');
    expect(redactRequestUrl('/v1/x?a1b2c3d4e5f6a7b8c9d0')).toBe('/v1/x?[redacted]');
    // Our own parameters stay: numbers, refs, formats, UUIDs, maxTokens.
    const plain = '/v1/x?maxTokens=4000&since=1764201234&ref=e12&format=text&replayOf=0f8e2a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b&flag';
    expect(redactRequestUrl(plain)).toBe(plain);
    expect(looksLikeToken('0123456789abcdef')).toBe(true);
    expect(looksLikeToken('onlylettersherealongword')).toBe(false);
  });

  it('redacts registered values anywhere in a URL or text, also percent-encoded', () => {
    const secret = 'Reg1stered/Key+Value';
    addSecretValues([secret, 'short']);
    expect(redactRequestUrl(`/v1/${encodeURIComponent(secret)}/x?note=a`)).toBe('/v1/[redacted]/x?note=a');
    expect(redactText(`failed for key ${secret}.`)).toBe('failed for key [redacted].');
    // Values under 8 characters are not registered (they would hide ordinary words).
    expect(redactText('a short word')).toBe('a short word');
  });
});

describe('redactText', () => {
  it('removes user-info, query values and fragments from URLs in free text', () => {
    const out = redactText('page.goto: net::ERR_CONNECTION_REFUSED at https://bob:pw-SECRET@example.test:8443/a/b?code=SECRET1&x=SECRET2#SECRET3\nCall log:\n  - navigating to "https://bob:pw-SECRET@example.test:8443/a/b?code=SECRET1", waiting until "load"');
    expect(out).not.toMatch(/SECRET|bob/);
    expect(out).toContain('https://[redacted]@example.test:8443/a/b?code=[redacted]&x=[redacted]');
  });

  it('drops typed values from call logs, also when they span lines', () => {
    const log = 'Call log:\n  - waiting for locator(\'#pw\')\n    - fill("line1-SECRET\nline2-SECRET")\n  - attempting fill action\n  - elementHandle.type("SECRET-typed")\n  - elementHandle.press("Enter")';
    const out = redactText(log);
    expect(out).not.toContain('SECRET');
    expect(out).toContain('fill([redacted])');
    expect(out).toContain('attempting fill action');
    expect(out).toContain("waiting for locator('#pw')");
  });

  it('hides exact values and walks plain data and errors', () => {
    expect(redactValues('value abc-SECRET was bad', ['abc-SECRET'])).toBe('value [redacted] was bad');
    const data = mapStrings({ a: ['http://u:p@h/?q=1'], e: new TypeError('at http://h/?t=SECRET') }, redactText) as any;
    expect(JSON.stringify(data)).not.toMatch(/SECRET|u:p@/);
    expect(data.e.type).toBe('TypeError');
  });
});

describe('withoutTenantSeries', () => {
  it('leaves out every sample with a tenant label, keeps the rest', () => {
    const text = '# HELP x help\n# TYPE x gauge\nx{node="n1"} 1\nx{node="n1",tenant="acme"} 2\ny{tenant="acme"} 3\nz 4';
    expect(withoutTenantSeries(text)).toBe('# HELP x help\n# TYPE x gauge\nx{node="n1"} 1\nz 4');
  });
});
