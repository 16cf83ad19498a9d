import { describe, expect, it } from 'vitest';
import { parseDescription } from '@ariadne/page';
import { failedSteps, usePlainEnglish } from './helpers/plain-english.js';

// A server-rendered page of the table era (grid-edit.html): a form table labelled by the cells
// to the left, a radio group labelled by the cell before it, and a grid whose header row is <th>s
// in the body: one row in edit mode with unlabelled inputs, and a footer row for a new entry.
// People name such a field by its column ("the Hours box in the Mobile app row") and the footer
// row by what it is ("the empty row", "the new row"); a radio by the group label above it.

const pe = usePlainEnglish('grids');
const PAGE = 'grid-edit.html';

describe('grids: the parse', () => {
  it('reads a radio "under" its group label as scoped to it; a switch under a header stays a column', () => {
    expect(parseDescription('the Fixed fee radio button under Billing Type')).toMatchObject({ phrase: 'Fixed fee', role: 'radio', scope: 'Billing Type' });
    expect(parseDescription('the Email radio under Contact method')).toMatchObject({ phrase: 'Email', role: 'radio', scope: 'Contact method' });
    expect(parseDescription('the green switch under Status').scope).toBeUndefined();
  });
});

describe('grids: on a page', () => {
  it('REST: a field alone in a grid cell is named by its column; the row says which', async () => {
    const r = await pe.rest(PAGE, [
      { action: 'fill', description: 'the Hours box in the Mobile app row', value: '5.5' },
      { action: 'fill', description: 'the Notes field in the Mobile app row', value: 'Retro' },
      { action: 'click', description: 'Update' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200, 200]);
    expect(r.log).toBe('update Tue 5.5 Retro;');
    // A row that shows its hours as text has no Hours field: refused, never the edit row's.
    const shown = await pe.rest(PAGE, [{ action: 'fill', description: 'the Hours box in the Support rota row', value: '1' }]);
    expect(shown.answers[0].status).toBe(409);
    expect(shown.values['hours2']).toBe('4.0');
  });

  it('REST: the empty row for a new entry, before and after it is begun; a radio under its group label', async () => {
    const r = await pe.rest(PAGE, [
      { action: 'fill', description: 'the Project box in the empty row', value: 'Audit' },
      { action: 'select', description: 'the Day list in the new row', value: 'Wed' },
      { action: 'fill', description: 'the Hours field in the blank line at the bottom of the grid', value: '3' },
      { action: 'fill', description: 'the Notes box in the new-entry row', value: 'Q3' },
      { action: 'click', description: 'Add' },
      { action: 'check', description: 'the Fixed fee radio button under Billing Type' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200, 200, 200, 200, 200]);
    expect(r.log).toBe('add Audit Wed 3 Q3;bill fixed;');
    expect(r.values['hours2']).toBe('4.0'); // the edit row untouched
    // A radio that is not in the group the words name is refused.
    const other = await pe.rest(PAGE, [{ action: 'check', description: 'the Monthly radio button under Billing Type' }]);
    expect(other.answers[0].status).toBe(409);
    expect(other.log).toBe('');
  });

  it('REST: a field that is in no row for a new entry is a miss there, though the page has it', async () => {
    const r = await pe.rest(PAGE, [{ action: 'fill', description: 'the Employee field in the empty row', value: 'x' }]);
    expect(r.answers[0].status).toBe(409);
    expect(r.answers[0].body.error.message).toContain('"empty"');
    expect(r.values['emp']).toBe('');
    // Nor is a row's field the form's field of that name (the scope was once dropped for fields: a silent wrong).
    const row = await pe.rest(PAGE, [{ action: 'fill', description: 'the Employee field in the Mobile app row', value: 'x' }]);
    expect(row.answers[0].status).toBe(409);
    expect(row.values['emp']).toBe('');
  });

  it('plans: "Label: Value" picks the choice named so beside a label that labels no control; a choice not offered fails', async () => {
    const r = await pe.plan(PAGE, ['Billing Type: Not billable']);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('bill none;');
    const chips = await pe.plan('overlays-columns.html', ['Filter: Feature']);
    expect(failedSteps(chips), JSON.stringify(chips.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(chips.log).toBe('filter Feature;');
    const absent = await pe.plan(PAGE, ['Billing Type: Monthly']);
    expect(failedSteps(absent).length).toBe(1);
    expect(absent.log).toBe('');
    const noChip = await pe.plan('overlays-columns.html', ['Filter: Urgent']);
    expect(failedSteps(noChip).length).toBe(1);
    expect(noChip.log).toBe('');
  });

  it('REST: a link in a sentence, the sentence by a word of it; a word not there is a miss', async () => {
    const r = await pe.rest(PAGE, [{ action: 'click', description: "the 'click here' link in the receipts sentence" }]);
    expect(r.answers[0].status, JSON.stringify(r.answers[0].body.error)).toBe(200);
    expect(r.log).toBe('receipts;');
    const other = await pe.rest(PAGE, [{ action: 'click', description: "the 'click here' link in the holidays sentence" }]);
    expect(other.answers[0].status).toBe(409);
    expect(other.log).toBe('');
  });

  it('REST: a field named only in part by a prompt ("Add a task…") is not taken over an inline editor the click opened', async () => {
    const r = await pe.rest('todo-edit.html', [
      { action: 'click', description: 'the edit button in the Pay rent row' },
      { action: 'fill', description: 'task text field', value: 'Pay rent (December)' },
    ]);
    expect(r.answers[1].status).toBe(409);
    expect(r.answers[1].body.error.code).toBe('ambiguous_target');
    expect(r.values['new']).toBe('');
    // Named as the prompt names it, it is the prompt's field.
    const add = await pe.rest('todo-edit.html', [{ action: 'click', description: 'the edit button in the Pay rent row' }, { action: 'fill', description: 'the Add a task field', value: 'Water plants' }]);
    expect(add.answers.map((a) => a.status), JSON.stringify(add.answers.map((a) => a.body.error))).toEqual([200, 200]);
    expect(add.values['new']).toBe('Water plants');
  });

  it('REST: a list named by the value it shows; a value no list shows is a miss', async () => {
    const r = await pe.rest('select-shown.html', [
      { action: 'select', description: "the '-- Select --' list next to Department", value: 'Finance' },
      { action: 'select', description: 'the GBP drop-down', value: 'EUR' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200]);
    expect(r.log).toBe('dept Finance;cur EUR;');
    const none = await pe.rest('select-shown.html', [{ action: 'select', description: "the 'Choose one' drop-down", value: 'Sales' }]);
    expect(none.answers[0].status).toBe(409);
    expect(none.log).toBe('');
  });

  it('plans: the checkbox before a quoted sentence, its full stop or not; "Only show the Bug cards" picks the filter', async () => {
    const r = await pe.plan(PAGE, ["Tick the checkbox before 'I confirm that these hours were worked on the projects named above.'"]);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('confirm on;');
    const absent = await pe.plan(PAGE, ["Tick the checkbox before 'I confirm that these hours were billed.'"]);
    expect(failedSteps(absent).length).toBe(1);
    expect(absent.log).toBe('');
    const filter = await pe.plan('overlays-columns.html', ['Only show the Bug cards']);
    expect(failedSteps(filter), JSON.stringify(filter.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(filter.log).toBe('filter Bug;');
  });

  it('plans: the same through the rules planner', async () => {
    const r = await pe.plan(PAGE, [
      'In the Mobile app row, type 7.25 in the Hours box',
      'Click Update',
      'In the empty row under the entries, type Audit in the Project box',
      'Type 2 into the Hours field in the new row',
      'Click Add',
      'Choose the Not billable radio button under Billing Type',
    ]);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('update Tue 7.25 Sprint review;add Audit  2 ;bill none;');
  });
});

// grid-inline-edit.html: Edit builds its row's boxes on the click; the footer row has boxes of the
// same columns all along. The step after the Edit means the box the Edit brought into view.
describe('a row edited in place beside a row for a new entry', () => {
  it('plans: "Amount: 289.00" after Edit fills the box the Edit brought, not the new row\'s; a checkbox beside its words in the next cell', async () => {
    const r = await pe.plan('grid-inline-edit.html', ["Click Edit in the 'Hotel - 2 nights' row", 'Amount: 289.00', 'Click Update']);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('update Hotel - 2 nights=289.00;');
  });

  it('must fail: a row named by the step is kept to, whatever the Edit brought', async () => {
    const r = await pe.rest('grid-inline-edit.html', [
      { action: 'click', description: "Edit in the 'Hotel - 2 nights' row" },
      { action: 'fill', description: 'the Amount box in the Taxi to client office row', value: '9.99' },
    ]);
    expect(r.answers[1].body.error?.code).toBe('target_not_found');
    expect(r.log).toBe('');
  });
});
