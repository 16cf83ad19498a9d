import { describe, expect, it } from 'vitest';
import { ICON_CONCEPTS, parseRowAction, ROW_VERBS } from '@ariadne/page';
import { interpret, isPurposeVerb, PURPOSE_VERBS } from '@ariadne/flows';
import { failedSteps, failureMessages, usePlainEnglish } from './helpers/plain-english.js';

// Steps about what a control DOES on weakly labelled pages (rules-verbs*.ts): "<verb> <object>"
// with the verb from the icon concepts' purposes ("Copy invite link" → the copy icon by "Invite
// link"), pagination ("Next page", "page 3"), a bulk action on ticked rows ("Delete them") and
// "Send X a password reset" (a control in X's row or its ⋯ menu) — on two pages whose controls
// are icon-only (icon-font classes, a Material ligature, a data-action, title-less SVGs):
// tests/fixtures/plain-english/verbs-settings.html and verbs-members.html. Each logs to #log.

const pe = usePlainEnglish('pv');
const { plan } = pe;
const failed = failedSteps;
const messages = failureMessages;

describe('one vocabulary (pure)', () => {
  it('every icon purpose that is a verb is a verb the planner reads; the row verbs stay as they were', () => {
    for (const v of ['copy', 'download', 'share', 'pin', 'archive', 'print', 'refresh', 'duplicate', 'upload', 'bookmark', 'attach']) expect(`${v}: ${isPurposeVerb(v)}`).toBe(`${v}: true`);
    // Each concept's purposes feed the vocabulary.
    for (const c of ICON_CONCEPTS) for (const p of c.purposes) if (/^[a-z]+$/.test(p)) expect(PURPOSE_VERBS.has(p)).toBe(true);
    // Baseline: the row verbs keep their reading ("Archive Invoice 12" → that row's Archive).
    for (const v of ROW_VERBS.split('|').filter((x) => /^[a-z]+$/.test(x))) {
      expect(interpret(`${v[0].toUpperCase()}${v.slice(1)} Invoice 12`)).toMatchObject(['delete', 'remove', 'trash', 'destroy'].includes(v) ? { kind: 'remove_item' } : { kind: 'row_action', item: 'Invoice 12', specs: parseRowAction(`${v} Invoice 12`)!.specs });
    }
    // Nouns among the purposes are not verbs.
    for (const w of ['settings', 'menu', 'home', 'next', 'info']) expect(isPurposeVerb(w)).toBe(false);
  });

  it('reads the wordings', () => {
    expect(interpret('Copy invite link')).toEqual({ kind: 'verb_object', verb: 'copy', object: 'invite link' });
    expect(interpret('Copy the team invite link to the clipboard')).toEqual({ kind: 'verb_object', verb: 'copy', object: 'team invite link' });
    expect(interpret('Print the receipt as a PDF')).toEqual({ kind: 'verb_object', verb: 'print', object: 'receipt' });
    expect(interpret('Next page')).toEqual({ kind: 'paginate', which: 'next' });
    expect(interpret('Go to the previous page')).toEqual({ kind: 'paginate', which: 'previous' });
    expect(interpret('the last page')).toEqual({ kind: 'paginate', which: 'last' });
    expect(interpret('Go to page 3')).toEqual({ kind: 'paginate', which: 3 });
    expect(interpret('Go back to the previous page')).toEqual({ kind: 'back' });
    expect(interpret('Bulk remove them')).toEqual({ kind: 'bulk', verb: 'remove' });
    expect(interpret('Archive the selected invoices')).toEqual({ kind: 'bulk', verb: 'archive' });
    expect(interpret('Send Grace Okafor a password reset')).toEqual({ kind: 'send_for', noun: 'password reset', who: 'Grace Okafor' });
    expect(interpret('Send a password reset to Grace Okafor')).toEqual({ kind: 'send_for', noun: 'password reset', who: 'Grace Okafor' });
    expect(interpret('Send it')).toMatchObject({ kind: 'click' });
  });
});

describe('"<verb> <object>": the control whose icon or name is the verb, by the object', () => {
  it('copy by a field label, a section heading, a Material ligature; pin in a card; download in a row; disconnect, assign', async () => {
    const r = await plan('verbs-settings.html', [
      'Copy invite link', 'Copy the API key to the clipboard', 'Copy the team invite link to the clipboard',
      'Pin the note about hiring', 'Download the March invoice', 'Print the February invoice',
      'Disconnect GitHub', "Assign 'Update privacy policy'", 'Share the offsite agenda',
    ]);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('copy invite;copy key;copy invite;pin hiring;download march;print february;disconnect github;assign privacy;share offsite;');
    // A qualifier the page does not show before the words it does ("live" API key, "our" invite link).
    const q = await plan('verbs-settings.html', ['Copy the live API key', 'Copy our team invite link']);
    expect(messages(q)).toBe('');
    expect(q.log).toBe('copy key;copy invite;');
  });

  it('must fail: no text by that name; a row whose only controls mean something else; a named control of another purpose', async () => {
    const a = await plan('verbs-settings.html', ['Copy the webhook URL']);
    expect(failed(a).length).toBe(1);
    expect(messages(a)).toMatch(/copy.*webhook URL.*none sits by text/i);
    expect(a.log).toBe('');
    // Only a leading qualifier is dropped, and two words must remain: "the old webhook URL" is still no text there.
    const a2 = await plan('verbs-settings.html', ['Copy the old webhook URL']);
    expect(failed(a2).length).toBe(1);
    expect(a2.log).toBe('');
    // "Review budget" has only a delete: its delete is never the assign control.
    const b = await plan('verbs-settings.html', ["Assign 'Review budget'"]);
    expect(failed(b).length).toBe(1);
    expect(messages(b)).toMatch(/assign/i);
    expect(b.log).toBe('');
    // Slack's card offers Connect: never clicked for "Disconnect".
    const c = await plan('verbs-settings.html', ['Disconnect Slack']);
    expect(failed(c).length).toBe(1);
    expect(c.log).toBe('');
    // Notes have pin and share, no download.
    const d = await plan('verbs-settings.html', ['Download the note about hiring']);
    expect(failed(d).length).toBe(1);
    expect(d.log).toBe('');
  });
});

