import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type TestService } from './helpers/service.js';
import { expectAbout, pngSize } from './helpers/images.js';

// The read-only views of a tab through HTTP against real Chromium: screenshots (png,
// jpeg, full page, one element), console (levels, text form), network (filters, one
// request with headers and bodies), cookies, storage and performance.

let svc: TestService;
let fx: FixtureServer;
const opened: string[] = [];

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((id) => svc.api.delete(`/v1/sessions/${id}`)));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function open(page: string): Promise<string> {
  const id = await svc.api.createSession();
  opened.push(id);
  await ok(id, { action: 'navigate', url: `${fx.url}/${page}` });
  return id;
}

async function ok(id: string, body: Record<string, unknown>): Promise<any> {
  const res = await svc.api.action(id, body);
  if (res.status !== 200) throw new Error(`${String(body.action)} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function yaml(id: string): Promise<string> {
  const res = await svc.api.snapshot(id, 'maxTokens=100000');
  expect(res.status).toBe(200);
  return res.body.snapshot;
}

async function refFor(id: string, role: string, name: string): Promise<string> {
  return refOf(await yaml(id), role, name);
}

describe('screenshot', () => {
  it('GET screenshot: png, jpeg, fullPage, element by ref', async () => {
    const id = await open('controls.html');
    const base = `/v1/sessions/${id}/roles/default/screenshot`;
    const png = await svc.api.get(base);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const view = pngSize(png.body);
    const jpeg = await svc.api.get(`${base}?format=jpeg&quality=50`);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(jpeg.body.subarray(0, 3).toString('hex')).toBe('ffd8ff');
    const full = pngSize((await svc.api.get(`${base}?fullPage=true`)).body);
    expect(full.width).toBe(view.width);
    expect(full.height).toBeGreaterThan(3000); // the page has a 3000px spacer
    expect(view.height).toBeLessThan(full.height);
    const el = pngSize((await svc.api.get(`${base}?ref=${await refFor(id, 'region', 'Drop zone')}`)).body);
    expectAbout(el, { width: 204, height: 84 });

    const unknown = await svc.api.get(`${base}?ref=e9999`);
    expect(unknown.status).toBe(409);
    expect(unknown.body.error.code).toBe('ref_not_found');
    const badQuality = await svc.api.get(`${base}?quality=50`);
    expect(badQuality.status).toBe(400);
  });
});

describe('observation', () => {
  it('console: level filter and text format', async () => {
    const id = await open('controls.html');
    const base = `/v1/sessions/${id}/roles/default/console`;
    const all = await svc.api.get(base);
    expect(all.status).toBe(200);
    expect(all.body.entries.map((e: any) => e.text)).toEqual(expect.arrayContaining(['controls ready', 'a deliberate error message']));
    const errors = await svc.api.get(`${base}?level=error`);
    expect(errors.body.entries.length).toBeGreaterThan(0);
    expect(errors.body.entries.every((e: any) => e.level === 'error')).toBe(true);
    expect(errors.body.entries.map((e: any) => e.text)).toContain('a deliberate error message');
    const logs = await svc.api.get(`${base}?level=log`);
    expect(logs.body.entries.map((e: any) => e.text)).toEqual(['controls ready']);
    const text = await svc.api.get(`${base}?format=text&level=log,error`);
    expect(text.body.text).toMatch(/\] log: controls ready/);
    expect(text.body.text).toMatch(/\] error: a deliberate error message/);
    const limited = await svc.api.get(`${base}?limit=1`);
    expect(limited.body.entries).toHaveLength(1);
    expect(limited.body.omitted).toBe(all.body.entries.length - 1);
  });

  it('network: type and failed filters, the 404, request detail with headers, body and truncation', async () => {
    const id = await open('controls.html');
    await ok(id, { action: 'wait_for', time: 200 });
    const base = `/v1/sessions/${id}/roles/default/network`;
    const fetches = await svc.api.get(`${base}?type=fetch`);
    expect(fetches.status).toBe(200);
    const notFound = fetches.body.requests.find((r: any) => r.url.endsWith('/status?code=404'));
    expect(notFound).toMatchObject({ method: 'GET', status: 404, resourceType: 'fetch' });
    expect(fetches.body.requests.every((r: any) => r.resourceType === 'fetch')).toBe(true);

    const failed = await svc.api.get(`${base}?failed=true`);
    expect(failed.body.requests.map((r: any) => r.url)).toContain(`${fx.url}/status?code=404`);
    expect(failed.body.requests.some((r: any) => r.url.endsWith('/controls.html'))).toBe(false);
    const good = await svc.api.get(`${base}?failed=false`);
    expect(good.body.requests.some((r: any) => r.url.endsWith('/status?code=404'))).toBe(false);

    const docs = await svc.api.get(`${base}?type=document`);
    const doc = docs.body.requests.find((r: any) => r.url === `${fx.url}/controls.html`);
    expect(doc).toMatchObject({ status: 200, resourceType: 'document' });

    const text = await svc.api.get(`${base}?format=text`);
    expect(text.body.text).toContain(`[${notFound.id}] GET ${fx.url}/status?code=404 404`);

    const detail = await svc.api.get(`${base}/${doc.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.requestHeaders['user-agent']).toBeTruthy();
    expect(detail.body.responseHeaders['content-type']).toContain('text/html');
    expect(detail.body.response.body).toContain('<h1>Controls</h1>');
    expect(detail.body.response.truncated).toBe(false);
    const cut = await svc.api.get(`${base}/${doc.id}?maxBodyBytes=100`);
    expect(cut.body.response.truncated).toBe(true);
    expect(cut.body.response.body).toHaveLength(100);
    expect(cut.body.response.bodyBytes).toBe(detail.body.response.bodyBytes);
    expect(cut.body.response.bodyBytes).toBeGreaterThan(100);
    const nf = await svc.api.get(`${base}/${notFound.id}`);
    expect(nf.body.response.body).toBe('status 404');

    const missing = await svc.api.get(`${base}/r99999`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('request_not_found');
  });

  it('cookies: set, read, and sent by the page', async () => {
    const id = await open('login.html');
    const base = `/v1/sessions/${id}/roles/default/cookies`;
    const set = await svc.api.post(base, { cookies: [{ name: 'flavor', value: 'oatmeal', url: fx.url }] });
    expect(set.status).toBe(200);
    const got = await svc.api.get(base);
    expect(got.body.cookies).toEqual([expect.objectContaining({ name: 'flavor', value: 'oatmeal', domain: '127.0.0.1' })]);
    await ok(id, { action: 'navigate', url: `${fx.url}/echo-headers` });
    expect((await yaml(id))).toContain('flavor=oatmeal');
    const cleared = await svc.api.post(base, { cookies: [], clear: true });
    expect(cleared.body.cookies).toEqual([]);
    const bad = await svc.api.post(base, { cookies: [{ name: 'x', value: 'y' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
  });

  it('storage (local and session) and performance', async () => {
    const id = await open('controls.html');
    const base = `/v1/sessions/${id}/roles/default`;
    const local = await svc.api.get(`${base}/storage?type=local`);
    expect(local.body).toEqual({ type: 'local', origin: fx.url, items: [{ key: 'theme', value: 'dark' }] });
    const session = await svc.api.get(`${base}/storage?type=session`);
    expect(session.body.items).toEqual([{ key: 'visit', value: '1' }]);
    const bad = await svc.api.get(`${base}/storage?type=cookie`);
    expect(bad.status).toBe(400);

    const perf = await svc.api.get(`${base}/performance`);
    expect(perf.status).toBe(200);
    expect(perf.body.url).toBe(`${fx.url}/controls.html`);
    expect(perf.body.navigation.type).toBe('navigate');
    expect(perf.body.navigation.loadMs).toBeGreaterThan(0);
    expect(perf.body.domNodes).toBeGreaterThan(30);
    expect(perf.body.resources.count).toBeGreaterThanOrEqual(1);
  });
});
