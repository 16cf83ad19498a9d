import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Whatever an agent finds, it can act on (issue 24 item 3): inspect/query, inspect/dom and
// dom list the snapshot ref of each element they show, and that ref acts on that element.

let svc: TestService;
let fx: FixtureServer;
let id: string;
const base = () => `/v1/sessions/${id}/roles/default`;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  id = await svc.api.createSession();
  expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/effects/choices.html` })).status).toBe(200);
});
afterAll(async () => {
  await svc?.api.delete(`/v1/sessions/${id}`);
  await svc?.stop();
  await fx?.close();
});

const REF = /^(?:f\d+)?e\d+$/;

describe('refs in what the finding tools answer', () => {
  it('inspect/query gives every match its ref, and acting on a ref hits that match', async () => {
    const q = await svc.api.get(`${base()}/inspect/query?selector=${encodeURIComponent('button.go')}`);
    expect(q.status).toBe(200);
    expect(q.body.matches).toBe(2);
    const refs = q.body.elements.map((e: any) => e.ref);
    // Before: no ref on any match.
    for (const r of refs) expect(r).toMatch(REF);
    expect(new Set(refs).size).toBe(2);
    const click = await svc.api.action(id, { action: 'click', ref: refs[1] });
    expect(click.status).toBe(200);
    const text = await svc.api.get(`${base()}/inspect/text?selector=${encodeURIComponent('#opened')}`);
    expect(JSON.stringify(text.body)).toContain('Beta');
    const t = await svc.api.get(`${base()}/inspect/query?selector=${encodeURIComponent('button.go')}&format=text`);
    expect(t.body.text).toMatch(/<button[^\n]*\[ref=(?:f\d+)?e\d+\]/);
  });

  it('inspect/dom gives each semantic child its ref', async () => {
    const d = await svc.api.get(`${base()}/inspect/dom?selector=${encodeURIComponent('div.card >> nth=0')}`);
    expect(d.status).toBe(200);
    const button = d.body.children.find((c: any) => c.tag === 'button');
    expect(button.ref).toMatch(REF);
    const click = await svc.api.action(id, { action: 'click', ref: button.ref });
    expect(click.status).toBe(200);
    const text = await svc.api.get(`${base()}/inspect/text?selector=${encodeURIComponent('#opened')}`);
    expect(JSON.stringify(text.body)).toContain('Alpha');
  });

  it('dom puts ref= on the locator line of interactive elements, with no marks left over', async () => {
    const d = await svc.api.get(`${base()}/dom`);
    expect(d.status).toBe(200);
    expect(d.body.dom, d.body.dom).toMatch(/↳ locator="input#news"[^\n]* ref=(?:f\d+)?e\d+/);
    expect(d.body.dom).not.toContain('\u0002');
    const ref = /↳ locator="input#news"[^\n]* ref=((?:f\d+)?e\d+)/.exec(d.body.dom)![1];
    const check = await svc.api.action(id, { action: 'check', ref });
    expect(check.status).toBe(200);
    expect(check.body.result).toMatchObject({ checked: true });
  });

  it('explore pattern and anchors give each sibling and anchor its ref', async () => {
    const q = await svc.api.get(`${base()}/inspect/query?selector=${encodeURIComponent('button.go')}`);
    const first = q.body.elements[0].ref;
    // Level 2 from the first card's button: the body, whose children are the cards.
    const p = await svc.api.get(`${base()}/explore/pattern?ref=${first}&level=2`);
    expect(p.status).toBe(200);
    const cards = p.body.siblings.filter((s: any) => s.tagName === 'div');
    expect(cards.length).toBe(2);
    // A div.card has no aria node of its own unless Playwright gave it one: refs where it did.
    const withRef = p.body.siblings.filter((s: any) => s.ref);
    expect(withRef.length, JSON.stringify(p.body.siblings.map((s: any) => [s.tagName, s.ref]))).toBeGreaterThan(0);
    for (const s of withRef) expect(s.ref).toMatch(REF);
    const a = await svc.api.get(`${base()}/explore/anchors?ref=${first}&level=1`);
    expect(a.status).toBe(200);
    const button = a.body.descendants.find((d: any) => d.tagName === 'button');
    expect(button.ref).toBe(first);
    const text = await svc.api.get(`${base()}/explore/anchors?ref=${first}&level=1&format=text`);
    expect(text.body.text).toContain(`ref=${first}`);
  });

  it('a selector on a clickable word in prose answers the ref the surface pass gave it', async () => {
    const other = await svc.api.createSession();
    try {
      expect((await svc.api.action(other, { action: 'navigate', url: `${fx.url}/weak/prose.html` })).status).toBe(200);
      const snap = (await svc.api.snapshot(other, 'maxTokens=100000')).body.snapshot as string;
      const res = await svc.api.action(other, { action: 'click', selector: 'span.alink' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // The same ref the snapshot shows on the word's own line.
      expect(res.body.target.ref).toMatch(REF);
      expect(snap).toContain(`[ref=${res.body.target.ref}]`);
      expect(snap.split('\n').find((l) => l.includes(`[ref=${res.body.target.ref}]`))).toContain('felis');
    } finally {
      await svc.api.delete(`/v1/sessions/${other}`);
    }
  });
});
