import { describe, expect, it } from 'vitest';
import { parseRating } from '@ariadne/page';
import { controlBesideText, interpret } from '@ariadne/flows';

// Pure logic of the wordings in plain-english-wording.test.ts: what each sentence is read as,
// and the ones that must NOT be read so (a colon in prose or in a verb-led step, a value that
// names a place, a menu that is not a row's).

const kind = (s: string) => interpret(s).kind;

describe('form shorthand', () => {
  it('"<Label>: <value>" is the label and the value', () => {
    expect(interpret('Department: Finance')).toEqual({ kind: 'set_field', label: 'Department', value: 'Finance' });
    expect(interpret('Start date: 14/11/2026')).toMatchObject({ label: 'Start date', value: '14/11/2026' });
    expect(interpret('**Country:** Kenya')).toMatchObject({ kind: 'set_field', label: 'Country', value: 'Kenya' });
    expect(interpret('Confirm password: "s3cret!"')).toMatchObject({ kind: 'set_field', label: 'Confirm password', value: 's3cret!' });
    expect(interpret('Check-in date: 3 May 2026')).toMatchObject({ kind: 'set_field', label: 'Check-in date' });
    expect(interpret('Website: https://acme.example')).toMatchObject({ kind: 'set_field', value: 'https://acme.example' });
    // A free-text field's value may start with a verb; "Description" is a field's label as often as a remark's.
    expect(interpret('Title: Check Spanish translations')).toMatchObject({ kind: 'set_field', label: 'Title', value: 'Check Spanish translations' });
    expect(interpret('Description: Lunch with supplier')).toMatchObject({ kind: 'set_field', label: 'Description', value: 'Lunch with supplier' });
    // A step after it still splits off.
    expect(interpret('Quantity: 3, then click Save')).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'set_field', label: 'Quantity', value: '3' } }, { intent: { kind: 'click' } }] });
  });

  it('not form shorthand: verb-led steps, assertions and prose with a colon', () => {
    expect(kind('Go to: https://example.com')).toBe('unknown');
    expect(kind('Note: the receipt comes later')).toBe('unknown');
    expect(kind('Step 3: Click Save')).toBe('unknown');
    expect(kind('Admin: click Delete')).toBe('unknown');
    expect(kind('Status: click Delete')).toBe('unknown');
    expect(kind('Verify: "Saved" is visible')).toBe('assert');
    expect(kind('Check: "Saved" is visible')).toBe('assert');
    expect(kind('Check the title: Welcome')).not.toBe('set_field');
    expect(kind('Expected result: the order is placed')).toBe('unknown');
    expect(kind('The page should say: thanks')).not.toBe('set_field');
  });
});

describe('typing into the focused field', () => {
  it('a value with no field named', () => {
    expect(interpret("Type 'Hello there'")).toEqual({ kind: 'type_focused', value: 'Hello there', replace: false });
    expect(interpret('Enter 42')).toEqual({ kind: 'type_focused', value: '42', replace: false });
    expect(interpret("Replace it with 'Bob'")).toEqual({ kind: 'type_focused', value: 'Bob', replace: true });
    expect(interpret('Change it to 5')).toEqual({ kind: 'type_focused', value: '5', replace: true });
    expect(interpret('Replace the text with "Q3 plan"')).toMatchObject({ kind: 'type_focused', replace: true });
  });

  it('not typing into the focus: a field named, a value that names a place, words that are not a value', () => {
    expect(interpret('Type "a" into Name')).toMatchObject({ kind: 'fill', target: { phrase: 'Name' } });
    expect(interpret('Enter 05/14/2024 as the date')).toMatchObject({ kind: 'fill' });
    expect(kind('Enter the code from the email')).not.toBe('type_focused');
    expect(kind('Change the quantity to 5')).toBe('fill');
    expect(interpret('Press Enter')).toMatchObject({ kind: 'press', key: 'Enter' });
  });
});

describe('"and confirm", dialogs, several clauses', () => {
  it('the confirm part takes the verb of the action before it', () => {
    expect(interpret('Delete Invoice 12 and confirm')).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'remove_item' } }, { intent: { kind: 'confirm_dialog', verb: 'Delete' } }] });
    expect(interpret('Click Disconnect and confirm the disconnection')).toMatchObject({ parts: [{}, { intent: { kind: 'confirm_dialog', verb: 'Disconnect' } }] });
    expect(interpret('Confirm the removal')).toEqual({ kind: 'confirm_dialog', verb: 'Remove' });
    expect(interpret('Confirm')).toEqual({ kind: 'confirm_dialog', verb: null });
    // Still assertions.
    expect(kind('Confirm "Saved" is visible')).toBe('assert');
    expect(kind('Confirm the order is placed')).toBe('assert');
  });

  it('"In the X dialog (that opens), ..." scopes every part to the dialog and its title', () => {
    expect(interpret('In the Invite dialog that opens, type "a@b.c" into Email and click Send')).toMatchObject({ kind: 'sequence', parts: [
      { intent: { kind: 'fill', target: { phrase: 'Email', landmark: 'dialog', scope: 'Invite' } } },
      { intent: { kind: 'click', target: { phrase: 'Send', landmark: 'dialog', scope: 'Invite' } } },
    ] });
    expect(interpret('In the dialog, click OK')).toMatchObject({ kind: 'click', target: { phrase: 'OK', landmark: 'dialog' } });
    expect((interpret('In the dialog, click OK') as { target: { scope?: string } }).target.scope).toBeUndefined();
    // A choice by value alone could land outside the dialog: refused.
    expect(kind('In the Role dialog, select Admin')).toBe('unknown');
    // Right after opening a list in it: the option of that list, by its whole name.
    // Opening a list and picking in it is one select in that list (the choices as they show on open).
    expect(interpret('In the Edit member dialog that opens, open the Role drop-down and pick Admin')).toMatchObject({ kind: 'select', value: 'Admin', target: { phrase: 'Role', role: 'combobox', landmark: 'dialog' } });
  });

  it('names with "and" stay whole; verb-led clauses split', () => {
    expect(interpret('Click Black and white')).toMatchObject({ kind: 'click', target: { phrase: 'Black and white' } });
    expect(interpret('Open the Role drop-down and pick Admin')).toMatchObject({ kind: 'select', value: 'Admin', target: { phrase: 'Role', role: 'combobox' } });
    expect(interpret('Open the Actions menu and pick Export')).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'click' } }, { intent: { kind: 'choose', values: ['Export'] } }] });
    expect(interpret('Tick "Terms and Conditions" and click Next')).toMatchObject({ kind: 'sequence', parts: [{ intent: { kind: 'check' } }, { intent: { kind: 'click' } }] });
  });
});

describe('the control before/after a text', () => {
  it('parses the side and the kind', () => {
    expect(interpret("Tick the checkbox before 'Remember me'")).toMatchObject({ kind: 'check', beside: { kind: 'checkbox', text: 'Remember me', side: 'before' } });
    expect(interpret('Click the box right after "Email me"')).toMatchObject({ kind: 'click', beside: { side: 'after' } });
    expect(interpret("Type 5 into the field left of 'kg'")).toMatchObject({ kind: 'fill', value: '5', beside: { kind: 'field', text: 'kg', side: 'before' } });
    expect(interpret("Untick the checkbox to the right of 'Promo'")).toMatchObject({ kind: 'uncheck', beside: { side: 'after' } });
    // "next to" stays with the resolver's text-beside-a-control reading.
    expect(interpret("Tick the box next to 'Remember me'")).toMatchObject({ kind: 'check', target: { role: 'checkbox', scope: 'Remember me' } });
  });

  const tree = [
    { role: 'generic', children: [{ role: 'checkbox', ref: 'e1' }, { role: 'generic', name: '', children: ['Apples'] }, { role: 'checkbox', ref: 'e2' }, 'Bananas'] },
    { role: 'list', children: [
      { role: 'listitem', children: [{ role: 'checkbox', ref: 'e3' }, 'Gift wrap'] },
      { role: 'listitem', children: ['Gift wrap', { role: 'checkbox', ref: 'e4' }] },
      { role: 'listitem', children: [{ role: 'checkbox', ref: 'e5' }, 'Tea'] },
      { role: 'listitem', children: ['Milk'] },
    ] },
  ];

  it('reads the page as one line: the very neighbour on that side, never across a row', () => {
    expect(controlBesideText(tree as never, 'checkbox', 'Apples', 'before')).toMatchObject({ ok: true, ref: 'e1' });
    expect(controlBesideText(tree as never, 'checkbox', 'Apples', 'after')).toMatchObject({ ok: true, ref: 'e2' });
    expect(controlBesideText(tree as never, 'checkbox', 'Bananas', 'after')).toMatchObject({ ok: false, code: 'target_not_found' });
    // "Gift wrap" twice: one box before one, one after the other — each side has exactly one.
    expect(controlBesideText(tree as never, 'checkbox', 'Gift wrap', 'before')).toMatchObject({ ok: true, ref: 'e3' });
    // "Milk" is in its own row: the box of the row before it is not beside it.
    expect(controlBesideText(tree as never, 'checkbox', 'Milk', 'before')).toMatchObject({ ok: false });
    expect(controlBesideText(tree as never, 'field', 'Apples', 'after')).toMatchObject({ ok: false });
    expect(controlBesideText(tree as never, 'checkbox', 'Pears', 'after')).toMatchObject({ ok: false, message: expect.stringMatching(/no text on the page/) });
  });

  it('a layout table: the box in one cell, its words in the next cell of the same row; never the next row', () => {
    const table = [{ role: 'table', children: [
      { role: 'row', children: [{ role: 'cell', children: [{ role: 'checkbox', ref: 'c1' }] }, { role: 'cell', name: 'I confirm these expenses.' }] },
      { role: 'row', children: [{ role: 'cell', children: [{ role: 'checkbox', ref: 'c2' }] }] },
      { role: 'row', children: [{ role: 'cell', name: 'Send me a copy' }] },
    ] }];
    expect(controlBesideText(table as never, 'checkbox', 'I confirm these expenses', 'before')).toMatchObject({ ok: true, ref: 'c1' });
    expect(controlBesideText(table as never, 'checkbox', 'Send me a copy', 'before')).toMatchObject({ ok: false });
  });

  it('refuses when the text is shown twice with a box on that side each', () => {
    const two = [{ role: 'list', children: [{ role: 'listitem', children: [{ role: 'checkbox', ref: 'a' }, 'Gift wrap'] }, { role: 'listitem', children: [{ role: 'checkbox', ref: 'b' }, 'Gift wrap'] }] }];
    expect(controlBesideText(two as never, 'checkbox', 'Gift wrap', 'before')).toMatchObject({ ok: false, code: 'ambiguous_target' });
  });
});

describe("a row's menu, a rating with nothing named", () => {
  it('row menus by possessive, "menu of/for", pronoun', () => {
    for (const s of ["Open Ann Lee's row menu", 'Open the menu of Ann Lee', 'Click the row menu for Ann Lee', "Open Ann Lee's ⋯ menu"]) {
      expect(interpret(s), s).toMatchObject({ kind: 'click', target: { scope: 'Ann Lee' } });
    }
    expect(interpret('Open the row menu for report.pdf')).toMatchObject({ target: { scope: 'report.pdf' } });
    // Not a row's: the site's menus.
    expect(interpret("Open the user's menu")).not.toMatchObject({ target: { scope: 'the user' } });
    expect(interpret('Open the File menu')).toMatchObject({ kind: 'click', target: { phrase: 'File' } });
    expect(interpret('Open the menu for mobile')).not.toMatchObject({ target: { scope: 'mobile' } });
  });

  it('"Rate 4 stars", "Give 3 out of 5", "Rate it 4 out of 5": the Nth star with no scope', () => {
    expect(parseRating('Rate 4 stars')).toMatchObject({ phrase: 'star', ordinal: 4, icon: true });
    expect(parseRating('Rate 4 stars')?.scope).toBeUndefined();
    expect(parseRating('Give 3 out of 5')).toMatchObject({ ordinal: 3, run: 5 });
    expect(parseRating('Rate it 4 out of 5')).toMatchObject({ ordinal: 4, run: 5 });
    // A bare number is not a rating.
    expect(parseRating('Rate 3')).toBeNull();
  });
});

describe('a purpose done "with" a control', () => {
  it('clicks, ticks or switches the control after "with"; its pronouns stand for what the purpose names', () => {
    expect(interpret('Deactivate Lee Chen with the green switch in the Status column of his row')).toMatchObject({ kind: 'uncheck', target: { role: 'switch', scope: 'Lee Chen', column: 'Status' } });
    expect(interpret('Close the editor with the × at the top right')).toMatchObject({ kind: 'click', target: { phrase: '×' } });
    expect(interpret('Close the dialog with the × in its top-right corner')).toMatchObject({ kind: 'click', target: { phrase: '×', landmark: 'dialog' } });
    expect(interpret('Tick off "Call the plumber" with the round checkbox in front of it')).toMatchObject({ kind: 'check', target: { role: 'checkbox', scope: 'Call the plumber' } });
    expect(interpret('Mark the e-mail from Noor Haddad as read with the envelope icon in her row')).toMatchObject({ kind: 'click', target: { phrase: 'envelope', scope: 'Noor Haddad' } });
    expect(interpret('Clear the Milk frother\'s rating with the circular-arrow icon to the right of its stars')).toMatchObject({ kind: 'click', target: { phrase: 'circular-arrow', scope: 'Milk frother' } });
    expect(interpret('Turn on bold with the B button in the toolbar')).toMatchObject({ kind: 'click', target: { phrase: 'B', role: 'button' } });
  });

  it('not a control: a value, a tool or a person after "with"', () => {
    expect(interpret('Fill the Name field with Ada')).not.toMatchObject({ target: { phrase: 'Ada' } });
    expect(interpret('Sign in with Google')).not.toMatchObject({ kind: 'click', target: { phrase: 'Google' } });
    expect(interpret('Share the file with the team')).not.toMatchObject({ target: { phrase: 'team' } });
    expect(interpret('Replace the title with the new one')).not.toMatchObject({ kind: 'click' });
  });
});

describe('purposes said with reasons and places', () => {
  it('drops why a step is done, where an item is listed, and where a notice sits', () => {
    expect(interpret("Turn off Tom Reyes's account so he is no longer active")).toMatchObject({ kind: 'uncheck', target: { role: 'switch', scope: 'Tom Reyes' } });
    expect(interpret('Remove Priya Natarajan from the members list')).toMatchObject({ kind: 'remove_item', item: 'Priya Natarajan' });
    expect(interpret('Delete Invoice 12 from the table')).toMatchObject({ kind: 'remove_item', item: 'Invoice 12' });
    expect(interpret('Get rid of the two-factor sign-in announcement at the top')).toMatchObject({ kind: 'click', target: { phrase: 'close', scope: 'two-factor sign-in' }, alternatives: expect.arrayContaining([{ phrase: 'close', role: null, icon: true }]) });
    // A reason is only a clause after the step: "so" inside a name stays.
    expect(interpret('Click "So long and thanks"')).toMatchObject({ kind: 'click', target: { phrase: 'So long and thanks' } });
  });
});

describe('the pager by what it shows', () => {
  it('"Show the remaining members on the next page of the list" is the next page; a page of a document is not', () => {
    expect(interpret('Show the remaining members on the next page of the list')).toMatchObject({ kind: 'paginate', which: 'next' });
    expect(interpret('See older messages on the previous page')).toMatchObject({ kind: 'paginate', which: 'previous' });
    expect(interpret('Show the summary on the next page of the report')).not.toMatchObject({ kind: 'paginate' });
  });
});

describe('a statement, then what to do about it; purposes in other words', () => {
  it('binds the pronoun and "that tag" to what the statement named', () => {
    expect(interpret('Lena Voss should be an active member again — switch her on')).toMatchObject({ kind: 'check', target: { role: 'switch', scope: 'Lena Voss' } });
    expect(interpret('Lena Vogel is no longer a contractor — take that tag off her (only hers, leave Lena Voss alone)')).toMatchObject({ kind: 'click', target: { scope: 'contractor', within: 'Lena Vogel' } });
    expect(interpret('I want to get the Monday summary of my projects by email — enable it')).toMatchObject({ kind: 'check', target: { role: 'switch', scope: 'Monday summary of my projects' } });
    // No statement before the dash: nothing is rewritten ("Hotel - 2 nights" is a name).
    expect(interpret("Click Edit in the 'Hotel - 2 nights' row")).toMatchObject({ kind: 'click', target: { phrase: 'Edit', scope: 'Hotel - 2 nights' } });
    // A statement with nothing to point back to is no command of its own.
    expect(interpret('Lena Voss should be an active member again — press Save')).toMatchObject({ kind: 'unknown' });
  });

  it('archive, take off, open the page for, confirm a clause', () => {
    expect(interpret('Put the privacy policy card away in the archive')).toMatchObject({ kind: 'row_action', verb: 'archive', item: 'privacy policy' });
    expect(interpret('Take the taxi expense off the claim')).toMatchObject({ kind: 'remove_item', item: 'taxi expense' });
    expect(interpret('Open the page for attaching scanned receipts')).toMatchObject({ kind: 'click', target: { phrase: '', role: 'link', scope: 'attaching scanned receipts' } });
    // "Confirm <clause>" stays an assertion to parse; the page decides (declarationBox).
    expect(interpret('Confirm the expenses are for company business')).toMatchObject({ kind: 'declare' });
    expect(interpret('Confirm the order is placed')).toMatchObject({ kind: 'assert' });
    expect(interpret('Remove the selected members in one go')).toMatchObject({ kind: 'bulk', verb: 'remove' });
    expect(interpret('Clear Full name and type Alex Morgan-Reid')).toMatchObject({ kind: 'fill', value: 'Alex Morgan-Reid', target: { phrase: 'Full name' } });
    expect(interpret("Move 'Cookie banner copy' back to In progress")).toMatchObject({ kind: 'drag', from: 'Cookie banner copy', to: 'In progress' });
    expect(interpret('Open the Done list menu')).toMatchObject({ kind: 'click', target: { phrase: 'more actions', scope: 'Done' } });
    expect(interpret('Add a card in Review')).toMatchObject({ kind: 'click', target: { phrase: 'Add a card', scope: 'Review' } });
    expect(interpret('Add Buy milk to the list')).toMatchObject({ kind: 'add_item', value: 'Buy milk' });
    expect(interpret('Submit the claim')).toMatchObject({ kind: 'click', target: { phrase: 'Submit claim', role: 'button' } });
    // "Confirm the removal" is still the dialog's button.
    expect(interpret('Confirm the removal')).toMatchObject({ kind: 'confirm_dialog' });
  });
});
