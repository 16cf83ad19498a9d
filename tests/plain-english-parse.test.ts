import { describe, expect, it } from 'vitest';
import { derivedReadings, flattenTree, groupOptionReadings, matchOnTree, nameTier, newItemField, parseDescription, parseRowAction, parseTarget, type AriaNode } from '@ariadne/page';
import { interpret, splitCompound } from '@ariadne/flows';

// Pure logic of issue 11: the sentence parser (rules planner), the target parser (shared
// by plans and REST descriptions) and the candidate matcher on plain snapshot trees.

describe('target phrases', () => {
  it('landmarks, containers, next-to, possessives, ordinals, kinds, labeled', () => {
    expect(parseDescription('Click the Sign in link in the navigation')).toMatchObject({ phrase: 'Sign in', role: 'link', landmark: 'navigation' });
    expect(parseTarget('the Subscribe button in the footer')).toMatchObject({ phrase: 'Subscribe', role: 'button', landmark: 'contentinfo' });
    expect(parseTarget('OK in the dialog')).toMatchObject({ phrase: 'OK', landmark: 'dialog' });
    // What the click is for, then the aside it left trailing: both say nothing of which one.
    expect(parseTarget("the purple switch at the right of the Push row ('On your phone, through the app') to switch it off")).toEqual({ phrase: '', role: 'switch', scope: 'Push' });
    expect(parseTarget("the small × on the 'beta' chip in Ana's row (the second row), not the one in Ann's row")).toMatchObject({ phrase: 'small ×', scope: "'beta' chip in Ana" });
    expect(parseTarget('Add to Cart in the Desk Lamp card')).toMatchObject({ phrase: 'Add to Cart', scope: 'Desk Lamp' });
    expect(parseTarget('"Add to cart" in the "Blue Mug" card')).toMatchObject({ phrase: 'Add to cart', scope: 'Blue Mug', quoted: true });
    expect(parseTarget('the checkbox next to Buy milk')).toMatchObject({ phrase: '', role: 'checkbox', scope: 'Buy milk' });
    expect(parseTarget("Buy milk's checkbox")).toMatchObject({ phrase: '', role: 'checkbox', scope: 'Buy milk' });
    expect(parseTarget('the checkbox for Walk the dog')).toMatchObject({ phrase: '', role: 'checkbox', scope: 'Walk the dog' });
    expect(parseTarget('the 3rd result')).toMatchObject({ phrase: '', ordinal: 3, role: 'listitem' });
    expect(parseTarget('the second checkbox')).toMatchObject({ phrase: '', ordinal: 2, role: 'checkbox' });
    expect(parseTarget('the last row')).toMatchObject({ ordinal: -1 });
    expect(parseTarget('the textbox')).toMatchObject({ phrase: '', role: 'textbox' });
    expect(parseTarget('the button in the dialog')).toMatchObject({ phrase: '', role: 'button', landmark: 'dialog' });
    expect(parseTarget('the field labeled "Full name"')).toMatchObject({ phrase: 'Full name', role: 'textbox', quoted: true });
    expect(parseTarget('"Save & continue!"')).toMatchObject({ phrase: 'Save & continue!', quoted: true });
    // "Log in" keeps its "in"; a quoted name ignores trailing colour words.
    expect(parseTarget('Log in')).toMatchObject({ phrase: 'Log in' });
    expect(parseDescription('click the button labeled "Place order" at the bottom right of the blue checkout panel, next to Sign in')).toMatchObject({ phrase: 'Place order', role: 'button' });
    // A quoted row name's closing apostrophe is no possessive; a possessive keeps its meaning.
    expect(parseDescription("the Edit link in the 'Hotel - 2 nights' row")).toMatchObject({ phrase: 'Edit', role: 'link', scope: 'Hotel - 2 nights' });
    expect(parseDescription("the Edit link in James' row")).toMatchObject({ phrase: 'Edit', scope: 'James' });
    expect(parseDescription("the Edit link in Ann Lee's row")).toMatchObject({ phrase: 'Edit', scope: 'Ann Lee' });
    // Where in a row or card it sits is colour; the row or card is the scope.
    expect(parseDescription("the archive (box) icon at the bottom right of the 'Update privacy policy' card")).toMatchObject({ phrase: 'archive', scope: 'Update privacy policy', icon: true });
    const arrow = parseDescription("the → arrow at the bottom right of the 'Write release notes' card in To do, just left of the box icon");
    expect(arrow).toMatchObject({ phrase: '→ arrow', scope: 'Write release notes in To do' });
    expect(derivedReadings(arrow)).toContainEqual(expect.objectContaining({ scope: 'Write release notes', within: 'To do' }));
    expect(parseDescription("the three vertical dots at the far right of Priya Natarajan's row")).toMatchObject({ phrase: 'three vertical dots', scope: 'Priya Natarajan' });
    expect(parseDescription('the grey toggle on the right of the Weekly digest row')).toMatchObject({ role: 'switch', scope: 'Weekly digest' });
    expect(parseDescription('the x at the top right of the Welcome dialog')).toMatchObject({ phrase: 'x', landmark: 'dialog', scope: 'Welcome' });
    // A kind word then "in" starts a place even without an article; a radio button is a radio.
    expect(parseDescription('the Weekly digest switch in Notifications')).toMatchObject({ phrase: 'Weekly digest', role: 'switch', scope: 'Notifications' });
    expect(parseDescription('the Cheque radio button in Payment Method')).toMatchObject({ phrase: 'Cheque', role: 'radio', scope: 'Payment Method' });
    expect(parseDescription('the Cheque radio button under Payment Method')).toMatchObject({ role: 'radio' });
    expect(parseDescription('Log in')).toMatchObject({ phrase: 'Log in' });
    // "under" a column's header is below it, never inside the header row (a silent wrong once).
    expect(parseDescription('the green switch under Status').scope).toBeUndefined();
    // A key pressed for a purpose is the key.
    expect(interpret('Press Enter to save')).toMatchObject({ kind: 'press', key: 'Enter' });
    expect(interpret('Hit Escape to close the editor')).toMatchObject({ kind: 'press', key: 'Escape' });
  });
});

describe('sentences', () => {
  it('compound steps split outside quotes', () => {
    expect(splitCompound('Type "Buy milk" into the new todo field and press Enter')).toEqual(['Type "Buy milk" into the new todo field', 'press Enter']);
    expect(splitCompound('Fill Email with a@b.co, then click Submit')).toEqual(['Fill Email with a@b.co', 'click Submit']);
    // One verb, two targets of a kind: two steps; two names joined by "and" stay one list.
    expect(splitCompound("Tick the checkbox at the start of Grace's row and the checkbox at the start of Lena's row")).toEqual(["Tick the checkbox at the start of Grace's row", "Tick the checkbox at the start of Lena's row"]);
    expect(splitCompound('Tick Buy milk and Walk the dog')).toEqual(['Tick Buy milk and Walk the dog']);
    expect(splitCompound('Type "Tom and click" into Name')).toEqual(['Type "Tom and click" into Name']);
    expect(splitCompound('Check Terms and Conditions')).toEqual(['Check Terms and Conditions']);
    const seq = interpret('Type Buy milk into the new todo field and press Enter');
    expect(seq).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'fill', value: 'Buy milk' } }, { intent: { kind: 'press', key: 'Enter' } }] });
  });

  it('everyday verbs', () => {
    expect(interpret('Mark Buy milk as done')).toMatchObject({ kind: 'check', target: { phrase: 'Buy milk', role: 'checkbox' } });
    // "Submit Claim": the control named so first ("Claim" alone matched the Claim links too).
    expect(interpret('Submit Claim')).toMatchObject({ kind: 'click', target: { phrase: 'Submit Claim', strict: true }, alternatives: [{ phrase: 'Claim' }] });
    expect(interpret('Open Settings')).toMatchObject({ kind: 'click', target: { phrase: 'Open Settings', strict: true }, alternatives: [{ phrase: 'Settings' }] });
    expect(interpret('Open Actions menu')).toMatchObject({ kind: 'click', target: { phrase: 'Actions' } });
    expect(interpret('Submit the form')).not.toMatchObject({ target: { phrase: 'Submit the form' } });
    expect(interpret('Make Omar Farouk an admin')).toMatchObject({ kind: 'make_role', item: 'Omar Farouk', value: 'admin' });
    expect(interpret('In the Edit member dialog that opens, open the Role drop-down and pick Admin')).toMatchObject({ kind: 'select', value: 'Admin', target: { phrase: 'Role', role: 'combobox', landmark: 'dialog' } });
    expect(interpret('Open the Actions menu and pick Export')).toMatchObject({ kind: 'sequence' });
    expect(interpret('Make it bold').kind).not.toBe('make_role');
    expect(interpret('Change my name to Alex Morgan-Reid')).toMatchObject({ kind: 'set_field', label: 'name', edit: 'my name' });
    expect(interpret('Correct the hotel amount to 289.00')).toMatchObject({ kind: 'fill', value: '289.00', edit: 'hotel amount' });
    expect(interpret('Role: Admin')).not.toHaveProperty('edit');
    expect(interpret('Mark "Buy milk" as not done')).toMatchObject({ kind: 'uncheck', target: { phrase: 'Buy milk' } });
    expect(interpret('Complete Walk the dog')).toMatchObject({ kind: 'check' });
    expect(interpret('Add a todo "Buy milk"')).toMatchObject({ kind: 'add_item', value: 'Buy milk' });
    expect(interpret('Add Buy milk to the list')).toMatchObject({ kind: 'add_item', value: 'Buy milk' });
    expect(interpret('Add the Blue Mug to the cart')).toMatchObject({ kind: 'click', target: { phrase: 'Add to cart', scope: 'Blue Mug' } });
    expect(interpret('Clear completed')).toMatchObject({ kind: 'click', target: { phrase: 'Clear completed' } });
    expect(interpret('Clear the search field')).toMatchObject({ kind: 'fill', value: '' });
    expect(interpret('Delete Buy milk')).toMatchObject({ kind: 'remove_item', item: 'Buy milk' });
    expect(interpret('Switch to the Billing tab')).toMatchObject({ kind: 'click', target: { phrase: 'Billing', role: 'tab' } });
    expect(interpret('Enter 05/14/2024 as the date')).toMatchObject({ kind: 'fill', value: '05/14/2024', target: { phrase: 'date' } });
    expect(interpret('Type hello into the Name field in upper case')).toMatchObject({ kind: 'fill', value: 'HELLO', target: { phrase: 'Name' } });
    expect(interpret('Choose Red, Green and Blue in the Colors list')).toMatchObject({ kind: 'select', value: ['Red', 'Green', 'Blue'] });
    expect(interpret('For the user @ann, click Like')).toMatchObject({ kind: 'click', target: { phrase: 'Like', scope: '@ann' } });
    expect(interpret('Close the dialog')).toMatchObject({ kind: 'close_dialog' });
    expect(interpret('Drag Card A to Done')).toMatchObject({ kind: 'drag', from: 'Card A', to: 'Done' });
    expect(interpret('Choose Canada as the country')).toMatchObject({ kind: 'select', value: 'Canada', target: { phrase: 'country' } });
    // The one switch in the row that shows the words first, then the switch named so.
    expect(interpret('Turn on Bluetooth')).toMatchObject({ kind: 'check', target: { phrase: '', role: 'switch', scope: 'Bluetooth' }, alternatives: [{ phrase: 'Bluetooth', role: 'switch' }] });
    expect(interpret('Switch Wi-Fi off')).toMatchObject({ kind: 'uncheck', target: { scope: 'Wi-Fi' }, alternatives: [{ phrase: 'Wi-Fi' }] });
    expect(interpret('Turn on the first switch')).toMatchObject({ kind: 'check', target: { ordinal: 1, role: 'switch' } });
    expect(interpret('Click Edit in the last row')).toMatchObject({ kind: 'click', target: { phrase: 'Edit', withinOrdinal: -1 } });
    expect(interpret('Select the row for Carla Diaz')).toMatchObject({ kind: 'check', target: { role: 'checkbox', scope: 'Carla Diaz' } });
    // A value for whatever control the label names (a select, a radio group, a drawn drop-down).
    expect(interpret('Set Role to Admin')).toEqual({ kind: 'set_field', label: 'Role', value: 'Admin', edit: 'Role' });
    expect(interpret('Choose Viewer under Role')).toEqual({ kind: 'set_field', label: 'Role', value: 'Viewer' });
    expect(interpret('Replace 245.00 with 289.00 in the amount box that appears')).toMatchObject({ kind: 'fill', value: '289.00', target: { phrase: 'amount', showing: '245.00' } });
    // Values with no list named: the list that offers them, else each one's own box (issue 25 §3).
    expect(interpret('Choose Red, Green and Blue')).toMatchObject({ kind: 'choose', values: ['Red', 'Green', 'Blue'], list: false });
    expect(interpret('Press ArrowRight twice')).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'press', key: 'ArrowRight' } }, { intent: { kind: 'press', key: 'ArrowRight' } }] });
    expect(interpret('Enter Ann as the first name, Lee as the last name and ann@x.io as the email, agree to the terms')).toMatchObject({
      kind: 'sequence',
      parts: [
        { intent: { kind: 'fill', value: 'Ann', target: { phrase: 'first name' } } },
        { intent: { kind: 'fill', value: 'Lee', target: { phrase: 'last name' } } },
        { intent: { kind: 'fill', value: 'ann@x.io', target: { phrase: 'email' } } },
        { intent: { kind: 'check', target: { phrase: 'terms' } } },
      ],
    });
  });

  it('uploads, archive, routes named in the step, month-name dates (issue 11 §2)', () => {
    expect(interpret('Upload report.pdf to the Attachment field')).toMatchObject({ kind: 'upload', files: ['report.pdf'], target: { phrase: 'Attachment', role: null } });
    expect(interpret('Attach file notes.txt')).toMatchObject({ kind: 'upload', files: ['notes.txt'], target: { phrase: '' } });
    expect(interpret('Attach a.png and b.png as the photos')).toMatchObject({ kind: 'upload', files: ['a.png', 'b.png'], target: { phrase: 'photos' } });
    // No file named: not understood, never a guess.
    expect(interpret('Attach the signed form')).toMatchObject({ kind: 'unknown' });
    // A verb applied to a row: that verb's control, scoped to the row that shows exactly the text.
    expect(interpret('Archive the Q3 report message')).toMatchObject({ kind: 'row_action', verb: 'archive', item: 'Q3 report', specs: [{ phrase: 'Archive', scope: 'Q3 report' }, { phrase: 'archive', icon: true }] });
    expect(interpret('Open the Actions menu')).toMatchObject({ kind: 'click', target: { phrase: 'Actions' } });
    expect(interpret('Open the Settings tab and click Save')).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'click', target: { phrase: 'Settings', role: 'tab' } } }, { intent: { kind: 'click', target: { phrase: 'Save' } } }] });
    expect(interpret('Choose Export from the File menu')).toMatchObject({ kind: 'click', target: { phrase: 'Export', scope: 'File menu' } });
    expect(interpret('In the Actions menu, choose Move to > Archive')).toMatchObject({ kind: 'click', target: { phrase: 'Move to > Archive', scope: 'Actions' } });
    expect(interpret('In the Advanced section, check Enable beta features')).toMatchObject({ kind: 'check', target: { phrase: 'Enable beta features', scope: 'Advanced' } });
    expect(interpret('In the main navigation, click Sign in')).toMatchObject({ kind: 'click', target: { phrase: 'Sign in', landmark: 'navigation' } });
    // The date goes to the page layer as written: it is put in the form the field takes there (values/).
    expect(interpret('Pick May 20, 2024 as the end date')).toMatchObject({ kind: 'fill', value: 'May 20, 2024', target: { phrase: 'end date' } });
    expect(interpret('Enter 14 May 2024 as the delivery date')).toMatchObject({ kind: 'fill', value: '14 May 2024' });
  });

  it('verify is exact unless it says contains', () => {
    expect(interpret('Verify "Walk the dog" is visible')).toMatchObject({ kind: 'assert', check: { type: 'text_visible', text: 'Walk the dog', match: 'exact' } });
    expect(interpret('Verify Walk the dog is visible')).toMatchObject({ check: { match: 'exact' } });
    expect(interpret('Verify the page contains "Walk the dog"')).toMatchObject({ check: { type: 'text_visible' } });
    expect((interpret('Verify the page contains "Walk the dog"') as { check: { match?: string } }).check.match).toBeUndefined();
    expect(interpret('Verify Buy milk is done')).toMatchObject({ check: { type: 'element_state', state: 'checked' } });
    expect(interpret('Verify the invoice status is "Paid"')).toMatchObject({ check: { type: 'element_text', text: 'Paid', match: 'words' } });
    expect(interpret('Verify the invoice status contains "Paid"')).toMatchObject({ check: { type: 'element_text', match: 'contains' } });
    expect(interpret('Enter the code ABC-123 into Gift card code')).toMatchObject({ kind: 'fill', value: 'ABC-123' });
  });

  it('an unparsed part is named, never passed on', () => {
    const seq = interpret('Click Save and frobnicate the widget') as { kind: string };
    // "frobnicate" is no verb: the whole is one click whose target will simply not be found.
    expect(seq.kind).toBe('click');
    const bad = interpret('Click Save, then make it faster');
    expect(bad).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'click' } }, { intent: { kind: 'unknown' } }] });
  });
});

const todo: AriaNode[] = [
  { role: 'navigation', ref: 'e1', children: [{ role: 'link', name: 'Sign in', ref: 'e2' }] },
  { role: 'main', ref: 'e3', children: [
    { role: 'paragraph', ref: 'e4', text: 'Click Sign in to continue, or Buy milk' },
    { role: 'textbox', name: 'What needs to be done?', ref: 'e5' },
    { role: 'list', ref: 'e6', children: [
      { role: 'listitem', ref: 'e7', children: [{ role: 'checkbox', ref: 'e8' }, 'Buy milk', { role: 'button', name: '×', ref: 'e9' }] },
      { role: 'listitem', ref: 'e10', children: [{ role: 'checkbox', ref: 'e11' }, 'Walk the dog later', { role: 'button', name: '×', ref: 'e12' }] },
      { role: 'listitem', ref: 'e13', children: [{ role: 'checkbox', ref: 'e14' }, 'Walk the dog', { role: 'button', name: '×', ref: 'e15' }] },
    ] },
    { role: 'link', name: 'Sign in', ref: 'e16' },
  ] },
];

describe('candidates on the tree', () => {
  it('action-aware: prose is never clicked, an unnamed checkbox takes its row text', () => {
    expect(matchOnTree(todo, parseTarget('Buy milk', 'checkbox'), 'check')).toMatchObject({ kind: 'hit', ref: 'e8' });
    expect(matchOnTree(todo, parseTarget('the checkbox next to Walk the dog'), 'check')).toMatchObject({ kind: 'hit', ref: 'e14' });
    expect(matchOnTree(todo, parseTarget('Click Sign in to continue'), 'click').kind).toBe('none');
    expect(matchOnTree(todo, parseTarget('the textbox'), 'fill')).toMatchObject({ kind: 'hit', ref: 'e5', rung: 'kind' });
    expect(matchOnTree(todo, parseTarget('the Sign in link in the navigation'), 'click')).toMatchObject({ kind: 'hit', ref: 'e2', rung: 'landmark' });
    expect(matchOnTree(todo, parseTarget('the second checkbox'), 'check')).toMatchObject({ kind: 'hit', ref: 'e11' });
    expect(matchOnTree(todo, parseTarget('the last checkbox'), 'check')).toMatchObject({ kind: 'hit', ref: 'e14' });
    expect(matchOnTree(todo, { phrase: '×', role: 'button', scope: 'Walk the dog' }, 'click')).toMatchObject({ kind: 'hit', ref: 'e15' });
  });

  it('other readings of the words never land on a loose match (prose-trap)', () => {
    const page: AriaNode[] = [
      { role: 'generic', ref: 'e1', text: 'Click Submit order to finish, then press Apply.' },
      { role: 'button', name: 'Place order', ref: 'e2' },
      { role: 'region', name: 'Newsletter', ref: 'e3', children: [{ role: 'heading', name: 'Newsletter', ref: 'e4' }, { role: 'textbox', name: 'Email', ref: 'e5' }] },
    ];
    // "Submit order" is only prose: "order" in a container that mentions "Submit" must not pick "Place order".
    for (const alt of [parseTarget('Submit order'), parseTarget('the Submit order button')]) {
      expect(matchOnTree(page, alt, 'click').kind).toBe('none');
    }
    expect(matchOnTree(page, { phrase: 'order', role: null, scope: 'Submit', strict: true }, 'click').kind).toBe('none');
    expect(matchOnTree(page, { phrase: 'Email', role: 'textbox', scope: 'Newsletter', strict: true }, 'fill')).toMatchObject({ kind: 'hit', ref: 'e5' });
    // "Check-out date" on a page with only "Start date": no field, not the paragraph around Start date.
    const dates: AriaNode[] = [{ role: 'paragraph', ref: 'e1', children: ['Start date', { role: 'textbox', name: 'Start date', ref: 'e2' }] }];
    for (const d of [parseDescription('Check-out date'), ...derivedReadings(parseDescription('Check-out date'))]) expect(matchOnTree(dates, d, 'fill').kind).toBe('none');
  });

  it('ambiguity lists candidates with wording that picks each one', () => {
    const m = matchOnTree(todo, parseTarget('the Sign in link'), 'click');
    expect(m.kind).toBe('ambiguous');
    if (m.kind !== 'ambiguous') return;
    expect(m.candidates.map((c) => c.ref)).toEqual(['e2', 'e16']);
    for (const c of m.candidates) {
      expect(c.wording, JSON.stringify(c)).toBeTruthy();
      expect(matchOnTree(todo, parseDescription(c.wording!), 'click')).toMatchObject({ kind: 'hit', ref: c.ref });
    }
  });
});

// Row actions (issue 11, the "archive X" silent-wrong risk): a verb applied to a row's text acts on
// the control with that verb's name inside the row that shows exactly that text, or fails.
const invoices = (names: string[], hidden: string[] = []): AriaNode[] => [
  { role: 'paragraph', ref: 'p1', text: 'Use the Archive button in a row to archive Invoice 12.' },
  { role: 'generic', ref: 'list', children: names.map((n, i) => ({ role: 'generic', ref: `r${i}`, children: [
    { role: 'link', name: n, ref: `l${i}` }, { role: 'generic', ref: `c${i}`, text: 'Acme' },
    ...(hidden.includes(n) ? [] : [{ role: 'generic', ref: `t${i}`, children: [{ role: 'button', name: `Archive ${n}`, ref: `a${i}` }, { role: 'button', name: 'Edit', ref: `e${i}` }] }]),
  ] })) },
];

describe('row actions', () => {
  it('parses a verb applied to a row, in plans and REST descriptions alike', () => {
    for (const s of ['Archive Invoice 12', 'Archive the Invoice 12 row', 'Archive "Invoice 12"']) {
      expect(interpret(s)).toMatchObject({ kind: 'row_action', verb: 'archive', item: 'Invoice 12', specs: [{ phrase: 'Archive', scope: 'Invoice 12' }, { phrase: 'archive', scope: 'Invoice 12', icon: true }] });
      expect(parseRowAction(s)).toMatchObject({ item: 'Invoice 12', specs: [{ phrase: 'Archive', scope: 'Invoice 12' }, { phrase: 'archive', icon: true }] });
    }
    expect(interpret('Edit invoice 12')).toMatchObject({ kind: 'row_action', specs: [{ phrase: 'Edit', scope: 'invoice 12' }, { icon: true }] });
    expect(interpret("Like Ben Ode's post")).toMatchObject({ kind: 'row_action', specs: [{ phrase: 'Like', scope: 'Ben Ode' }, { icon: true }] });
    expect(parseRowAction('Delete Invoice 12')?.specs.map((s) => s.phrase)).toEqual(['Delete', 'Remove', 'Trash', 'Destroy', 'Discard', 'delete']);
    expect(parseRowAction('Delete Invoice 12')?.specs.at(-1)).toMatchObject({ icon: true, scope: 'Invoice 12' });
    expect(interpret('Delete the Invoice 12 row')).toMatchObject({ kind: 'remove_item', item: 'Invoice 12' });
    // A name or scope after the verb is not a row action: "Archive in the Q3 row" is parsed as a target.
    expect(parseRowAction('Archive in the Q3 report row')).toBeNull();
    expect(parseRowAction('Delete button')).toBeNull();
  });

  it('acts only inside the row that shows exactly the text', () => {
    const page = invoices(['Invoice 120', 'Invoice 12', 'Invoice 123']);
    expect(matchOnTree(page, { phrase: 'Archive', role: null, scope: 'Invoice 12' }, 'click')).toMatchObject({ kind: 'hit', ref: 'a1' });
    expect(matchOnTree(page, { phrase: 'Edit', role: null, scope: 'invoice 12' }, 'click')).toMatchObject({ kind: 'hit', ref: 'e1' });
    // The row is absent: the longer numbers never stand in for it.
    const without = invoices(['Invoice 120', 'Invoice 123']);
    expect(matchOnTree(without, { phrase: 'Archive', role: null, scope: 'Invoice 12' }, 'click').kind).toBe('none');
    expect(matchOnTree(without, { phrase: 'Edit', role: null, scope: 'Invoice 12' }, 'click').kind).toBe('none');
    // Names: "Archive Invoice 12" is not the button "Archive Invoice 120" (a longer number).
    expect(nameTier('Archive Invoice 120', 'Archive Invoice 12', false)).toBe(-1);
    expect(nameTier('Archive Invoice 12', 'Invoice 12', false)).toBe(1);
  });

  it('never takes a wider container when the row\'s own control is hidden and another row\'s shows', () => {
    // Only Invoice 123's tools are shown (hovered); Invoice 7 has none showing.
    const page = invoices(['Invoice 7', 'Invoice 123'], ['Invoice 7']);
    expect(matchOnTree(page, { phrase: 'Archive', role: null, scope: 'Invoice 7' }, 'click').kind).toBe('none');
    // Another row's look-alike name ("Invoice 7 (void)") is never the row "Invoice 7".
    const voided = invoices(['Invoice 7', 'Invoice 7 (void)'], ['Invoice 7']);
    expect(matchOnTree(voided, { phrase: 'Archive', role: null, scope: 'Invoice 7' }, 'click').kind).toBe('none');
    // Buttons' names that mention the row are not its text: the row's own link is.
    expect(matchOnTree(voided, { phrase: 'Archive', role: null, scope: 'Invoice 7 (void)' }, 'click')).toMatchObject({ kind: 'hit', ref: 'a1' });
    // A derived reading never uses a control's name as its scope (a verb dropped).
    const rows = invoices(['Invoice 12']);
    expect(matchOnTree(rows, { phrase: 'Invoice 12', role: null, scope: 'Edit', strict: true }, 'click').kind).toBe('none');
  });

  it('a scope in a person\'s own order: every word in one row, never a name extended, never two rows', () => {
    const cards = (titles: string[]): AriaNode[] => [{ role: 'list', ref: 'board', children: titles.map((t, i) => ({ role: 'listitem', ref: `k${i}`, children: [
      { role: 'heading', ref: `h${i}`, name: t, level: 3 }, { role: 'button', name: 'Archive', ref: `a${i}` },
    ] })) }];
    const board = cards(['Fix login redirect', 'Update privacy policy', 'Write release notes', 'Walk the dog later']);
    expect(matchOnTree(board, { phrase: 'Archive', role: null, scope: 'login redirect fix' }, 'click')).toMatchObject({ kind: 'hit', ref: 'a0' });
    expect(matchOnTree(board, { phrase: 'Archive', role: null, scope: 'privacy policy' }, 'click')).toMatchObject({ kind: 'hit', ref: 'a1' });
    // A name the page does not show is not a longer one that begins with it.
    expect(matchOnTree(board, { phrase: 'Archive', role: null, scope: 'Walk the dog' }, 'click').kind).not.toBe('hit');
    // Words two cards hold: which one is not known.
    const two = cards(['Update privacy policy', 'Review privacy policy']);
    expect(matchOnTree(two, { phrase: 'Archive', role: null, scope: 'privacy policy' }, 'click').kind).not.toBe('hit');
    // One word is a name: matched whole only.
    expect(matchOnTree(board, { phrase: 'Archive', role: null, scope: 'login' }, 'click').kind).not.toBe('hit');
    // A row's second word in the title over its table: "the taxi expense" in Expense Lines.
    const table: AriaNode[] = [{ role: 'generic', ref: 'sec', children: [
      { role: 'heading', ref: 'ht', name: 'Expense Lines', level: 2 },
      { role: 'table', ref: 't', children: ['Taxi to client office', 'Hotel - 2 nights'].map((d, i) => ({ role: 'row', ref: `r${i}`, children: [
        { role: 'cell', ref: `d${i}`, text: d }, { role: 'cell', ref: `x${i}`, children: [{ role: 'button', name: 'Delete', ref: `del${i}` }] },
      ] })) },
    ] }];
    expect(matchOnTree(table, { phrase: 'Delete', role: null, scope: 'taxi expense' }, 'click')).toMatchObject({ kind: 'hit', ref: 'del0' });
    expect(matchOnTree(table, { phrase: 'Delete', role: null, scope: 'taxi invoice' }, 'click').kind).not.toBe('hit');
    // A layout table that holds the words somewhere is no container of them.
    const layout: AriaNode[] = [{ role: 'generic', ref: 'form', children: [
      { role: 'generic', ref: 'top', text: 'Claim date' },
      { role: 'button', name: '', ref: 'cal' },
      { role: 'generic', ref: 'lines', children: [{ role: 'generic', ref: 'lt', text: 'Expense lines: taxi to client office' }, { role: 'button', name: '', ref: 'del' }] },
    ] }];
    expect(matchOnTree(layout, { phrase: '', role: 'button', scope: 'taxi expense' }, 'click')).not.toMatchObject({ kind: 'hit', ref: 'cal' });
    const long: AriaNode[] = [{ role: 'generic', ref: 'form', children: [
      { role: 'generic', ref: 'top', text: `Claim date ${'and more words of a long form '.repeat(8)}` },
      { role: 'button', name: '', ref: 'cal' },
      { role: 'generic', ref: 'lines', text: 'Expense lines: taxi to client office' },
    ] }];
    expect(matchOnTree(long, { phrase: '', role: 'button', scope: 'taxi expense' }, 'click').kind).not.toBe('hit');
  });

  it('ordinals inside a scoped row; an option by its group; the field that adds a new item', () => {
    const table: AriaNode[] = [{ role: 'table', ref: 't', children: ['1001', '1010'].map((n, i) => ({ role: 'row', ref: `r${i}`, children: [
      { role: 'cell', ref: `c${i}`, name: n }, { role: 'cell', ref: `d${i}`, children: [{ role: 'button', ref: `v${i}` }, { role: 'button', ref: `x${i}` }] },
    ] })) }];
    expect(matchOnTree(table, parseTarget('the first button in the 1010 row'), 'click')).toMatchObject({ kind: 'hit', ref: 'v1' });
    expect(matchOnTree(table, parseTarget('the first button in the 1099 row'), 'click').kind).toBe('none');
    const form: AriaNode[] = [{ role: 'group', name: 'Shipping', ref: 'g', children: [{ role: 'radio', name: 'Standard (3–5 days)', ref: 's' }, { role: 'radio', name: 'Express (1–2 days)', ref: 'x' }] },
      { role: 'button', name: 'Save draft', ref: 'b' }];
    const [express] = groupOptionReadings(parseTarget('Express shipping'));
    expect(matchOnTree(form, express, 'click')).toMatchObject({ kind: 'hit', ref: 'x' });
    expect(groupOptionReadings(parseTarget('Save draft')).every((r) => matchOnTree(form, r, 'click').kind === 'none')).toBe(true);
    const todos: AriaNode[] = [{ role: 'heading', name: 'todos', ref: 'h' }, { role: 'textbox', name: 'What needs to be done?', ref: 'i' }];
    expect(newItemField(flattenTree(todos), parseTarget('the new todo input', 'textbox'))).toMatchObject({ kind: 'hit', ref: 'i' });
    expect(newItemField(flattenTree([{ role: 'heading', name: 'Sign in', ref: 'h' }, { role: 'textbox', name: 'Email', ref: 'i' }]), parseTarget('the new todo input', 'textbox')).kind).toBe('none');
  });

  it('search, move, slider wording', () => {
    expect(interpret('Search for lamp')).toMatchObject({ kind: 'search', value: 'lamp' });
    expect(interpret('Search the catalog for "desk lamp"')).toMatchObject({ kind: 'search', value: 'desk lamp' });
    expect(interpret('Search for lamp in the sidebar')).toMatchObject({ kind: 'unknown' });
    expect(interpret('Move Write tests to Done')).toMatchObject({ kind: 'drag', from: 'Write tests', to: 'Done' });
    const slider: AriaNode[] = [{ role: 'slider', name: 'Volume', ref: 's' }];
    expect(matchOnTree(slider, parseTarget('Volume', 'textbox'), 'fill')).toMatchObject({ kind: 'hit', ref: 's' });
  });
});

// Issue 25: everyday wording on weak pages, as parsed (the browser tests are plain-english-weak.test.ts).
describe('weak-page wording (issue 25)', () => {
  it('role words before a name, fields by kind, places and looks around the words', () => {
    expect(parseTarget('button OK')).toMatchObject({ phrase: 'OK', role: 'button', whole: 'button OK' });
    expect(parseTarget('the link Home')).toMatchObject({ phrase: 'Home', role: 'link' });
    expect(interpret('Press key Enter')).toMatchObject({ kind: 'press', key: 'Enter' });
    expect(parseTarget('the textarea')).toMatchObject({ phrase: '', kind: 'multiline' });
    expect(parseTarget('the big text box')).toMatchObject({ phrase: '', kind: 'multiline' });
    expect(parseTarget('the first text field')).toMatchObject({ phrase: '', kind: 'text', ordinal: 1 });
    expect(parseTarget('the date field')).toMatchObject({ phrase: 'date', kind: 'date' });
    expect(parseTarget('the trash icon of the email from Trista')).toMatchObject({ phrase: 'trash', scope: 'Trista', icon: true });
    expect(parseTarget('the bin icon at the top right')).toMatchObject({ phrase: 'bin', icon: true });
    expect(parseTarget('the round checkbox in front of Call the plumber')).toMatchObject({ phrase: '', role: 'checkbox', scope: 'Call the plumber' });
    expect(parseTarget('the × in the Welcome back title bar')).toMatchObject({ phrase: '×', landmark: 'dialog', scope: 'Welcome back' });
    expect(parseTarget('the trash can in the row of "Re: Quarterly numbers"')).toMatchObject({ phrase: 'trash can', scope: 'Re: Quarterly numbers' });
  });

  it('several fields at once, choices by value, tick lists and nothing', () => {
    const many = interpret('Put the user name "ann" and the password "pw1" into the boxes');
    expect(many).toMatchObject({ kind: 'sequence' });
    expect((many as any).parts.map((p: any) => p.text)).toEqual(['Type "ann" into the user name field', 'Type "pw1" into the password field']);
    expect((interpret('Type "a" and "b" into the text fields') as any).parts.map((p: any) => p.text)).toEqual(['Type "a" into the first text field', 'Type "b" into the second text field']);
    expect((interpret('Type the code "k" into both boxes') as any).parts.map((p: any) => p.text)).toEqual(['Type "k" into the first field', 'Type "k" into the second field']);
    expect(interpret('Fill To with a@b.c, Subject with Lunch and the message with Hi')).toMatchObject({ kind: 'sequence', parts: [{ text: 'Fill To with a@b.c' }, { text: 'Fill Subject with Lunch' }, { text: 'Fill the message with Hi' }] });
    expect(interpret('Select Kenya from the list')).toMatchObject({ kind: 'choose', values: ['Kenya'], list: true });
    expect(interpret('Choose Medium')).toMatchObject({ kind: 'choose', values: ['Medium'], list: false });
    expect(interpret('Tick Red, Blue and Teal')).toMatchObject({ kind: 'choose', values: ['Red', 'Blue', 'Teal'], tick: true });
    expect(interpret('Tick "Send me news" and "I agree to the terms"')).toMatchObject({ kind: 'choose', values: ['Send me news', 'I agree to the terms'], tick: true });
    expect(interpret('Tick nothing')).toMatchObject({ kind: 'untick_all' });
    expect(interpret('Tick Buy milk')).toMatchObject({ kind: 'check' });
    expect(interpret('Expand the section')).toMatchObject({ kind: 'click', target: { collapsed: true } });
    expect(interpret('sign in')).toMatchObject({ kind: 'click', target: { phrase: 'Sign in', role: 'button' } });
  });
});
