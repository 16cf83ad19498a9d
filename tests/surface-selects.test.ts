import { describe, expect, it } from 'vitest';
import { failureMessages, usePlainEnglish } from './helpers/plain-english.js';
import { openTab } from './helpers/service.js';
import { jsonNode, refsIn, snapshots } from './helpers/surface.js';

// Drop-downs drawn without ARIA (a box showing one value and a caret, a label beside it, a
// floating list on click) show as `combobox "<label>" [inferred=label] [value=<shown>]` and take
// select by ref, by description and through the rules planner: the box is clicked, the choice
// whose text is exactly the value is clicked, and the box is read back. A value not offered
// closes the list and fails naming the choices. Fixtures in tests/fixtures/plain-english/
// selects-*.html: a Chosen-like jQuery widget, an old mat-select with an overlay pane, a
// hand-written div select with a CSS-triangle caret and Bootstrap dropdown buttons (one used as
// a select, one a menu of actions). Each page logs what its own handlers did to #log.

const pe = usePlainEnglish('sel');

const PAGES: { page: string; want: { name: string; value: string }[]; notCombo: RegExp[] }[] = [
  { page: 'selects-chosen.html', want: [{ name: 'Role', value: 'Editor' }, { name: 'Team', value: '-- Select --' }], notCombo: [/Actions/] },
  { page: 'selects-material.html', want: [{ name: 'Role', value: 'Editor' }, { name: 'Language', value: 'English' }], notCombo: [] },
  { page: 'selects-plain.html', want: [{ name: 'Priority', value: 'Normal' }, { name: 'Status', value: 'Open' }, { name: 'Region', value: 'Europe' }], notCombo: [/More/] },
];

describe('drop-downs drawn without ARIA read as comboboxes with their label and value', () => {
  it.each(PAGES)('$page', async ({ page, want, notCombo }) => {
    const { id, state } = await openTab(pe.svc, `${pe.fx.url}/plain-english/${page}`);
    const f = await snapshots(pe.svc, id);
    const lines = f.yaml.split('\n').filter((l) => /^\s*- combobox/.test(l));
    expect(lines.length, f.yaml).toBe(want.length);
    for (const [i, w] of want.entries()) {
      const [ref] = refsIn(f, { role: 'combobox', name: w.name, from: 'label', marks: [`[value=${w.value}]`] });
      expect(lines[i]).toContain(`[ref=${ref}]`);
      expect(jsonNode(f.json, ref)).toMatchObject({ role: 'combobox', inferredName: w.name, value: w.value });
      expect(await state.page.locator(`aria-ref=${ref}`).count()).toBe(1);
    }
    for (const re of notCombo) expect(lines.join('\n')).not.toMatch(re);
    expect((await snapshots(pe.svc, id)).yaml).toBe(f.yaml);
    await pe.svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('REST select on drawn drop-downs', () => {
  it('by description in each style: picks the choice, the box reads it back', async () => {
    const ch = await pe.rest('selects-chosen.html', [{ action: 'select', description: 'the Role drop-down', value: 'Admin' }]);
    expect(ch.answers.map((a) => a.status), JSON.stringify(ch.answers.map((a) => a.body))).toEqual([200]);
    expect(ch.answers[0].body.result).toMatchObject({ selected: ['Admin'], showing: 'Admin' });
    expect(ch.log).toBe('role=Admin;');
    const mat = await pe.rest('selects-material.html', [{ action: 'select', description: 'the Language drop-down', value: 'French' }]);
    expect(mat.answers.map((a) => a.status), JSON.stringify(mat.answers.map((a) => a.body))).toEqual([200]);
    expect(mat.log).toBe('language=French;');
    const plain = await pe.rest('selects-plain.html', [
      { action: 'select', description: 'Priority', value: 'urgent' },
      { action: 'select', description: 'the Region dropdown', value: 'Asia' },
    ]);
    expect(plain.answers.map((a) => a.status), JSON.stringify(plain.answers.map((a) => a.body))).toEqual([200, 200]);
    expect(plain.log).toBe('priority=Urgent;region=Asia;');
  });

  it('two drop-downs on a page told apart by label; by ref; the snapshot follows the page', async () => {
    const { id, state } = await openTab(pe.svc, `${pe.fx.url}/plain-english/selects-chosen.html`);
    const f = await snapshots(pe.svc, id);
    const [team] = refsIn(f, { role: 'combobox', name: 'Team', from: 'label' });
    const byRef = await pe.svc.api.action(id, { action: 'select', ref: team, value: 'Support' });
    expect(byRef.status, JSON.stringify(byRef.body)).toBe(200);
    const byWords = await pe.svc.api.action(id, { action: 'select', description: 'the Role drop-down', value: 'Viewer' });
    expect(byWords.status, JSON.stringify(byWords.body)).toBe(200);
    expect(await state.page.evaluate(() => document.getElementById('log')!.textContent)).toBe('team=Support;role=Viewer;');
    const after = (await snapshots(pe.svc, id)).yaml;
    expect(after).toMatch(/- combobox "Team" \[inferred=label\] \[value=Support\]/);
    expect(after).toMatch(/- combobox "Role" \[inferred=label\] \[value=Viewer\]/);
    await pe.svc.api.delete(`/v1/sessions/${id}`);
  });

  it('a value not offered: nothing chosen, the list closed, the error names the choices; never a near match', async () => {
    for (const [page, description, value, choices] of [
      ['selects-chosen.html', 'the Role drop-down', 'Guest', /"Viewer", "Editor", "Admin", "Billing admin"/],
      // A near match ("Billing admin" for "Billing") is not taken (the value is redacted where the message repeats it).
      ['selects-chosen.html', 'the Role drop-down', 'Billing', /"Viewer", "Editor", "Admin", "\[redacted\] admin"/],
      ['selects-material.html', 'the Role drop-down', 'Admins', /"Viewer", "Editor", "Admin", "Owner"/],
      ['selects-plain.html', 'the Status drop-down', 'Close', /"Open", "Pending", "\[redacted\]d"/],
    ] as const) {
      const r = await pe.rest(page, [{ action: 'select', description, value }]);
      expect(r.answers[0].status, `${page} ${value}`).toBe(422);
      // (The value itself is redacted from error messages, as every request value is.)
      expect(r.answers[0].body.error.message).toMatch(/Nothing chosen in the drop-down: no choice/);
      expect(r.answers[0].body.error.message).toMatch(choices);
      expect(r.log, `${page} ${value}`).toBe('');
    }
    // The list is closed after the refusal (Escape).
    const { id, state } = await openTab(pe.svc, `${pe.fx.url}/plain-english/selects-material.html`);
    await snapshots(pe.svc, id);
    const r = await pe.svc.api.action(id, { action: 'select', description: 'the Role drop-down', value: 'Root' });
    expect(r.status).toBe(422);
    expect(await state.page.locator('.cdk-overlay-pane').count()).toBe(0);
    expect(await state.page.locator('#role .mat-select-value-text').textContent()).toBe('Editor');
    await pe.svc.api.delete(`/v1/sessions/${id}`);
  });

  it('a menu button with a caret (a menu of actions) is no drop-down: select on it fails, nothing clicked', async () => {
    for (const [page, description, value] of [['selects-chosen.html', 'the Actions drop-down', 'Export CSV'], ['selects-plain.html', 'the More drop-down', 'Print']] as const) {
      const r = await pe.rest(page, [{ action: 'select', description, value }]);
      expect(r.answers[0].status, description).toBeGreaterThanOrEqual(400);
      expect(r.answers[0].status, description).toBeLessThan(500);
      expect(r.log, description).toBe('');
    }
  });
});

describe('rules planner: "<Label>: <value>", "Set <Label> to <value>", "Choose X in the Y drop-down"', () => {
  it('Chosen-like', async () => {
    const r = await pe.plan('selects-chosen.html', ['Role: Admin', 'Set Team to Engineering']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('role=Admin;team=Engineering;');
  });

  it('mat-select-like with an overlay pane', async () => {
    const r = await pe.plan('selects-material.html', ['Choose Owner in the Role drop-down', 'Language: German']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('role=Owner;language=German;');
  });

  it('hand-written div select and a Bootstrap button used as a select', async () => {
    const r = await pe.plan('selects-plain.html', ['Set Priority to High', 'Choose Americas in the Region drop-down', 'Status: Pending']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('priority=High;region=Americas;status=Pending;');
  });

  it('a value not offered fails the step naming the choices; nothing chosen', async () => {
    const r = await pe.plan('selects-plain.html', ['Set Priority to Critical']);
    expect(failureMessages(r)).toMatch(/"Low", "Normal", "High", "Urgent"/);
    expect(r.log).toBe('');
  });
});

describe('ARIA comboboxes that lost their name (MDC-era mat-select in a dialog)', () => {
  it('are named by the floating label beside them, and chosen in by plan and by REST', async () => {
    const { id } = await openTab(pe.svc, `${pe.fx.url}/plain-english/selects-mdc-dialog.html`);
    const f = await snapshots(pe.svc, id);
    expect(f.yaml).toMatch(/- combobox "Access level" \[inferred=label\] \[ref=e\d+\]/);
    expect(f.yaml).toMatch(/- combobox "Office" \[inferred=label\]/);
    // The empty one is named by its placeholder, and shows no value.
    expect(f.yaml).toMatch(/- combobox "Team" \[inferred=label\] \[ref=e\d+\]/);
    await pe.svc.api.delete(`/v1/sessions/${id}`);
    const run = await pe.plan('selects-mdc-dialog.html', ['Work e-mail: ana@example.com', 'Access level: Commenter', 'Choose Lisbon under Office', 'Send']);
    expect(failureMessages(run), JSON.stringify(run.steps)).toBe('');
    expect(run.log).toBe('access=Commenter;office=Lisbon;send:ana@example.com;');
    // "Open the X drop-down and pick Y": one select in that list (the dialog also shows "Berlin"
    // as text: only the list's choice counts).
    const pair = await pe.plan('selects-mdc-dialog.html', ['In the dialog, open the Office drop-down and pick Berlin', 'Team: Support']);
    expect(failureMessages(pair)).toBe('');
    expect(pair.log).toBe('office=Berlin;team=Support;');
    const rest = await pe.rest('selects-mdc-dialog.html', [{ action: 'select', description: 'the Access level drop-down', value: 'Owner' }]);
    expect(rest.log).toBe('access=Owner;');
    // Not offered: nothing chosen.
    const none = await pe.plan('selects-mdc-dialog.html', ['Access level: Admin']);
    expect(failureMessages(none)).toMatch(/No option "Admin" to choose; the options are: "Viewer", "Commenter", "Editor", "Owner"/);
    expect(none.log).toBe('');
  });
});
