import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directSnapshotStats } from '@ariadne/page';
import { openTab, startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { type Expected, jsonNode, refsIn, snapshots } from './helpers/surface.js';

// Issue 24 §2: fields show what a person reads. A field labelled only by text beside or above
// it (a <label> without `for`, a <span>, the table cell to its left, the line above) takes that
// text, marked inferred=label; its kind shows ([multiline], [type=date], [type=password]...);
// a select shows its current choice. Today all of these read `textbox` with no name.
// Also: pages with frames take Playwright's public path; the surface pass runs there per frame.

let svc: TestService;
let fixtures: FixtureServer;

beforeAll(async () => {
  [svc, fixtures] = await Promise.all([startTestService(), startFixtureServer()]);
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

const FIELDS: Expected[] = [
  { role: 'textbox', name: 'Username', from: 'label' },
  { role: 'textbox', name: 'Password', from: 'label', marks: ['[type=password]'] },
  { role: 'combobox', name: 'Country', from: 'label', marks: ['[value=Peru]'] },
  { role: 'textbox', name: 'Birthday', from: 'label', marks: ['[type=date]'] },
  { role: 'textbox', name: 'E-mail', from: 'label', marks: ['[type=email]'] },
  { role: 'textbox', name: 'Comments', from: 'label', marks: ['[multiline]'] },
  { role: 'checkbox', name: 'Send me the newsletter', from: 'label' },
];

describe('unlabelled fields', () => {
  it('take the text beside or above them, their kind and a select its choice, in yaml, text and json; fill and select by those refs work', async () => {
    const { id, state } = await openTab(svc, `${fixtures.url}/weak/form.html`);
    const f = await snapshots(svc, id);
    const refs = Object.fromEntries(FIELDS.map((w) => [w.name, refsIn(f, w)[0]]));
    // The JSON carries the same facts as fields.
    expect(jsonNode(f.json, refs.Password)).toMatchObject({ role: 'textbox', inferredName: 'Password', inferredFrom: 'label', kind: 'password' });
    expect(jsonNode(f.json, refs.Birthday)).toMatchObject({ kind: 'date' });
    expect(jsonNode(f.json, refs.Comments)).toMatchObject({ kind: 'multiline' });
    expect(jsonNode(f.json, refs.Country)).toMatchObject({ role: 'combobox', value: 'Peru' });
    // Accessible names stay Playwright's: the inferred one never replaces `name`.
    expect(jsonNode(f.json, refs.Username)?.name).toBeUndefined();
    for (const [name, ref] of Object.entries(refs)) expect(await state.page.locator(`aria-ref=${ref}`).count(), name).toBe(1);
    const act = async (body: Record<string, unknown>) => {
      const r = await svc.api.action(id, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await act({ action: 'type', ref: refs.Username, text: 'ada' });
    await act({ action: 'type', ref: refs.Password, text: 's3cret' });
    await act({ action: 'select', ref: refs.Country, value: 'Chile' });
    await act({ action: 'fill', ref: refs.Birthday, value: '1990-04-01' });
    await act({ action: 'type', ref: refs.Comments, text: 'hello' });
    await act({ action: 'click', ref: refsIn(f, { role: 'button', name: 'Register' })[0] });
    expect(await state.page.evaluate(() => (window as unknown as { __submitted: unknown }).__submitted)).toMatchObject({ user: 'ada', pass: 's3cret', country: 'Chile', born: '1990-04-01', notes: 'hello' });
    // The select's value follows the page.
    const after = await snapshots(svc, id);
    expect(after.yaml).toMatch(/- combobox "Country" \[inferred=label\] \[value=Chile\]/);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('pages with frames (Playwright public path)', () => {
  it('the surface pass runs in every frame: icons, prose words and fields inside iframes get names and working refs', async () => {
    const { id, state } = await openTab(svc, `${fixtures.url}/weak/framed.html`);
    const d0 = directSnapshotStats.fallback;
    const f = await snapshots(svc, id);
    expect(directSnapshotStats.fallback).toBeGreaterThan(d0);
    const trash = refsIn(f, { role: 'generic', name: 'trash', from: 'class' });
    expect(trash.length).toBe(3);
    expect(trash[0]).toMatch(/^f\d+e\d+$/);
    refsIn(f, { role: 'textbox', name: 'Birthday', from: 'label', marks: ['[type=date]'] });
    const terms = /- generic \[clickable\] \[ref=((?:f\d+)?e\d+)\]: terms/.exec(f.yaml);
    expect(terms, f.yaml).not.toBeNull();
    const mail = state.page.frames().find((fr) => fr.url().endsWith('webmail.html'))!;
    const res = await svc.api.action(id, { action: 'click', ref: trash[1] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await mail.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)).toEqual(['trash:2']);
    expect((await svc.api.action(id, { action: 'click', ref: terms![1] })).status).toBe(200);
    expect(await state.page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)).toEqual(['outer-terms']);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});
