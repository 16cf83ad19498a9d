import { describe, expect, it } from 'vitest';
import { failedSteps, failureMessages, usePlainEnglish } from './helpers/plain-english.js';
import { openTab } from './helpers/service.js';
import { jsonNode, refsIn, snapshots } from './helpers/surface.js';

// Toggle switches drawn without ARIA (a clickable pill with a knob, no role, no aria-checked,
// no text) show as `switch "<label>" [checked]` with the state a person sees, and take
// check/uncheck by ref, by description and through the rules planner ("Turn on Weekly
// digest"), clicked only when the state differs and read back after. Fixtures in
// tests/fixtures/plain-english/switches-*.html, one per style: Angular-Material-era divs,
// Tailwind UI buttons, a Bootstrap-era label over a hidden checkbox with a ::before knob,
// jQuery-plugin divs (a listener only) and iOS-style focusable divs, and an admin table with
// Active/Admin columns. Each page logs what its own handlers did to #log.

const pe = usePlainEnglish('sw');

type State = 'on' | 'off' | 'unknown';
interface Want { name: string; from: string; state: State }

const PAGES: { page: string; want: Want[]; notSwitches?: RegExp[]; unnamed?: number }[] = [
  {
    page: 'switches-material.html',
    want: [
      { name: 'Weekly digest', from: 'label', state: 'off' },
      { name: 'Product news', from: 'label', state: 'on' },
      { name: 'Notifications', from: 'label', state: 'on' },
      { name: 'Notifications', from: 'label', state: 'off' },
    ],
    // Pill-shaped tags with text and a small progress bar are not switches.
    notSwitches: [/- generic \[ref=e\d+\] \[cursor=pointer\]: Beta/, /- generic \[ref=e\d+\] \[cursor=pointer\]: New/],
  },
  {
    page: 'switches-tailwind.html',
    want: [{ name: 'Email alerts', from: 'label', state: 'on' }, { name: 'Weekly digest', from: 'label', state: 'off' }],
    notSwitches: [/- button "Pro" \[ref=e\d+\]/],
  },
  {
    page: 'switches-bootstrap.html',
    want: [
      { name: 'Dark mode', from: 'label', state: 'off' }, { name: 'Email alerts', from: 'label', state: 'on' }, { name: 'Auto-save drafts', from: 'label', state: 'on' },
      { name: 'Show avatars', from: 'label', state: 'off' }, { name: 'Two-factor login', from: 'label', state: 'on' },
    ],
    // The checkbox clipped to 1 px is in the tree: the switch stands for it (one control, not two).
    notSwitches: [/^(?![\s\S]*- checkbox[^\n]*\[ref=)/],
  },
  {
    page: 'switches-jquery.html',
    want: [
      { name: 'Wi-Fi', from: 'label', state: 'on' },
      { name: 'Bluetooth', from: 'label', state: 'off' },
      { name: 'Airplane mode', from: 'label', state: 'off' },
      { name: 'Location', from: 'label', state: 'on' },
      // Knob placed by flexbox, no state word: unknown. Class "off" with the knob right: unknown.
      { name: 'Sync', from: 'label', state: 'unknown' },
      { name: 'Hotspot', from: 'label', state: 'unknown' },
      { name: 'Roaming', from: 'label', state: 'off' },
    ],
    // The header's theme switch has no text near it: a switch without a name.
    unnamed: 1,
  },
  {
    page: 'switches-members.html',
    want: [
      { name: 'Active', from: 'column', state: 'on' }, { name: 'Admin', from: 'column', state: 'off' },
      { name: 'Active', from: 'column', state: 'off' }, { name: 'Admin', from: 'column', state: 'off' },
      { name: 'Active', from: 'column', state: 'on' }, { name: 'Admin', from: 'column', state: 'on' },
    ],
  },
];

describe('switches drawn without ARIA read as switches, with their state and label', () => {
  it.each(PAGES)('$page', async ({ page, want, notSwitches, unnamed }) => {
    const { id, state } = await openTab(pe.svc, `${pe.fx.url}/plain-english/${page}`);
    const f = await snapshots(pe.svc, id);
    // Every switch, in document order, once.
    const lines = f.yaml.split('\n').filter((l) => /^\s*- switch "/.test(l));
    expect(lines.length, f.yaml).toBe(want.length);
    expect(f.yaml.split('\n').filter((l) => /^\s*- switch \[/.test(l)).length).toBe(unnamed ?? 0);
    const seen = new Map<string, number>();
    for (const [i, w] of want.entries()) {
      const refs = refsIn(f, { role: 'switch', name: w.name, from: w.from });
      const k = seen.get(w.name) ?? 0;
      seen.set(w.name, k + 1);
      const ref = refs[k];
      expect(lines[i]).toContain(`[ref=${ref}]`);
      // Playwright's way: [checked] when on, nothing when off; an unknown state says so.
      if (w.state === 'on') expect(lines[i]).toContain('[checked]');
      else expect(lines[i]).not.toContain('[checked]');
      expect(lines[i].includes('[state=unknown]'), lines[i]).toBe(w.state === 'unknown');
      const node = jsonNode(f.json, ref)!;
      expect(node).toMatchObject({ role: 'switch', inferredName: w.name, inferredFrom: w.from });
      if (w.state === 'unknown') expect(node).toMatchObject({ state: 'unknown' });
      else expect(node.checked).toBe(w.state === 'on');
      expect(await state.page.locator(`aria-ref=${ref}`).count()).toBe(1);
    }
    for (const re of notSwitches ?? []) expect(f.yaml).toMatch(re);
    // Refs and states are stable across snapshots of the unchanged page.
    expect((await snapshots(pe.svc, id)).yaml).toBe(f.yaml);
    await pe.svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('REST check/uncheck on drawn switches', () => {
  it('by ref: clicks only when the state differs, reads it back; already in the state asked: left alone and said so', async () => {
    const { id, state } = await openTab(pe.svc, `${pe.fx.url}/plain-english/switches-tailwind.html`);
    const f = await snapshots(pe.svc, id);
    const [alerts] = refsIn(f, { role: 'switch', name: 'Email alerts', from: 'label' });
    const [digest] = refsIn(f, { role: 'switch', name: 'Weekly digest', from: 'label' });
    const on = await pe.svc.api.action(id, { action: 'check', ref: digest });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.result).toMatchObject({ checked: true, changed: true, switch: true });
    const again = await pe.svc.api.action(id, { action: 'check', ref: alerts });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.result).toMatchObject({ checked: true, changed: false });
    expect(again.body.result.note).toMatch(/already on/);
    expect(await state.page.evaluate(() => document.getElementById('log')!.textContent)).toBe('digest on;');
    // The snapshot follows the page.
    expect((await snapshots(pe.svc, id)).yaml).toMatch(/- switch "Weekly digest" \[inferred=label\][^\n]* \[checked\]/);
    await pe.svc.api.delete(`/v1/sessions/${id}`);
  });

  it('by description in each style: "the X switch", "the toggle for X", "X\'s switch"', async () => {
    const tw = await pe.rest('switches-tailwind.html', [
      { action: 'uncheck', description: 'the Email alerts switch' },
      { action: 'check', description: 'the toggle for Weekly digest' },
    ]);
    expect(tw.answers.map((a) => a.status), JSON.stringify(tw.answers.map((a) => a.body))).toEqual([200, 200]);
    expect(tw.log).toBe('alerts off;digest on;');
    const bs = await pe.rest('switches-bootstrap.html', [
      { action: 'uncheck', description: 'Auto-save drafts' },
      { action: 'check', description: 'the Dark mode toggle' },
      { action: 'check', description: 'Show avatars' },
      { action: 'uncheck', description: 'the Two-factor login switch' },
    ]);
    expect(bs.answers.map((a) => a.status), JSON.stringify(bs.answers.map((a) => a.body))).toEqual([200, 200, 200, 200]);
    expect(bs.log).toBe('autosave off;dark on;avatars on;twofactor off;');
    const jq = await pe.rest('switches-jquery.html', [
      { action: 'check', description: 'Bluetooth' },
      { action: 'uncheck', description: 'the Wi-Fi switch' },
      { action: 'check', description: "Airplane mode's switch" },
      { action: 'uncheck', description: 'the Location toggle' },
    ]);
    expect(jq.answers.map((a) => a.status), JSON.stringify(jq.answers.map((a) => a.body))).toEqual([200, 200, 200, 200]);
    expect(jq.log).toBe('bluetooth on;wifi off;airplane on;location off;');
  });

  it('a Flowbite "peer" toggle (a hidden checkbox, a pill whose ::after is the knob) in a section whose name a setting repeats', async () => {
    const r = await pe.rest('switches-peer.html', [
      { action: 'check', description: 'the Weekly digest switch in Notifications' },
      // "Push notifications" holds the section's word: its own label is not the section.
      { action: 'uncheck', description: 'the Push notifications switch in Notifications' },
      { action: 'uncheck', description: 'the Email alerts toggle' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200, 200]);
    expect(r.log).toBe('digest on;push off;alerts off;');
    // A section the page does not have is a miss, the same setting or not.
    const none = await pe.rest('switches-peer.html', [{ action: 'uncheck', description: 'the Push notifications switch in Privacy' }]);
    expect(none.answers[0].status).toBe(409);
    expect(none.log).toBe('');
  });

  it('a switch no text names, named by its id ("night mode" → #night-mode): the attribute rung takes it as checkable', async () => {
    const r = await pe.rest('switches-jquery.html', [{ action: 'check', description: 'the night mode switch' }, { action: 'check', description: 'night mode' }]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body))).toEqual([200, 200]);
    expect(r.answers[0].body.target.why).toMatch(/switch drawn without ARIA/);
    expect(r.answers[1].body.result).toMatchObject({ changed: false });
    expect(r.log).toBe('night-mode on;');
  });

  it('an unknown state refuses check/uncheck (nothing clicked); a plain click still works', async () => {
    const r = await pe.rest('switches-jquery.html', [{ action: 'check', description: 'the Sync switch' }]);
    expect(r.answers[0].status).toBe(422);
    expect(r.answers[0].body.error.code).toBe('check_failed');
    expect(r.answers[0].body.error.message).toMatch(/state cannot be read/);
    expect(r.log).toBe('');
    const h = await pe.rest('switches-jquery.html', [{ action: 'uncheck', description: 'the Hotspot switch' }]);
    expect(h.answers[0].body.error?.code).toBe('check_failed');
    expect(h.log).toBe('');
    const c = await pe.rest('switches-jquery.html', [{ action: 'click', description: 'the Sync switch' }]);
    expect(c.answers[0].status).toBe(200);
    expect(c.log).toBe('sync toggled;');
  });

  it('a click that does not move the switch fails with check_failed', async () => {
    const r = await pe.rest('switches-jquery.html', [{ action: 'check', description: 'the Roaming switch' }]);
    expect(r.answers[0].status).toBe(422);
    expect(r.answers[0].body.error.code).toBe('check_failed');
    expect(r.answers[0].body.error.message).toMatch(/did not turn it on/);
    expect(r.log).toBe('roaming locked;');
  });

  it('a pill badge with text, an avatar pill, a clickable progress bar are no switches: check on them fails, nothing clicked', async () => {
    for (const [page, description] of [['switches-tailwind.html', 'the Pro button'], ['switches-tailwind.html', '#account'], ['switches-material.html', '.progress']]) {
      const target = description.startsWith('#') || description.startsWith('.') ? { selector: description } : { description };
      const r = await pe.rest(page, [{ action: 'check', ...target }]);
      expect(r.answers[0].status, description).not.toBe(200);
      expect(r.log, description).toBe('');
    }
  });
});

describe('rules planner: Turn on / Disable / Switch off', () => {
  it('"Turn on Weekly digest", "Disable email alerts" (Tailwind)', async () => {
    const r = await pe.plan('switches-tailwind.html', ['Turn on Weekly digest', 'Disable email alerts', 'Verify the Weekly digest switch is checked', 'Verify the Email alerts switch is unchecked']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('digest on;alerts off;');
    expect(r.steps.slice(0, 2).map((s) => s.target?.role)).toEqual(['switch', 'switch']);
  });

  it('"Switch off the Active toggle in Tom Reyes\'s row" flips that row\'s only (not Tom Reyes Jr\'s, not Admin)', async () => {
    // The Admin switch re-renders on click: found again by the same words and read as drawn.
    const r = await pe.plan('switches-members.html', ["Switch off the Active toggle in Tom Reyes's row", "Turn on the Admin switch in Ana Diaz's row", "Verify the Admin switch in Ana Diaz's row is checked"]);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('Tom Reyes active off;Ana Diaz admin on;');
    expect(r.steps[1].effect).toMatch(/re-read after re-render: checked/);
  });

  it('"Enable Bluetooth", "Switch Wi-Fi off" (jQuery plugin, listener only); "Turn on Dark mode" (Bootstrap)', async () => {
    const j = await pe.plan('switches-jquery.html', ['Enable Bluetooth', 'Switch Wi-Fi off']);
    expect(failureMessages(j)).toBe('');
    expect(j.log).toBe('bluetooth on;wifi off;');
    const b = await pe.plan('switches-bootstrap.html', ['Turn on Dark mode']);
    expect(failureMessages(b)).toBe('');
    expect(b.log).toBe('dark on;');
  });

  it('a switch already in the state asked is left alone and the step says so', async () => {
    const r = await pe.plan('switches-material.html', ['Turn on Product news']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('');
    expect(r.steps[0].effect).toMatch(/already on/);
  });

  it('two switches with one label need a scope: refused without, the right one with', async () => {
    const bare = await pe.plan('switches-material.html', ['Turn off Notifications']);
    expect(failedSteps(bare).length).toBe(1);
    expect(failedSteps(bare)[0].error?.code).toBe('ambiguous_target');
    expect(bare.log).toBe('');
    const scoped = await pe.plan('switches-material.html', ['Turn on Notifications in the Gemini card']);
    expect(failureMessages(scoped)).toBe('');
    expect(scoped.log).toBe('gemini on;');
  });

  it('an unknown state fails the step honestly; a row\'s selection box is still not its setting', async () => {
    const u = await pe.plan('switches-jquery.html', ['Turn on Sync']);
    expect(failedSteps(u)[0]?.error?.code).toBe('check_failed');
    expect(u.log).toBe('');
    const sel = await pe.plan('switches-members.html', ['Activate Ana Diaz']);
    expect(sel.log).not.toContain('picked');
    if (!failedSteps(sel).length) expect(sel.log).toBe('Ana Diaz active on;');
  });
});
