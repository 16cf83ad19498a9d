import { describe, expect, it } from 'vitest';
import { failedSteps, failureMessages, usePlainEnglish } from './helpers/plain-english.js';

// Pagination, bulk actions on ticked rows and "Send X a <thing>" (the rest of
// plain-english-verbs.test.ts, split to keep each file short): pagination ("Next page", "page 3"), a bulk action on ticked rows ("Delete them") and
// "Send X a password reset" (a control in X's row or its ⋯ menu) — on two pages whose controls
// are icon-only (icon-font classes, a Material ligature, a data-action, title-less SVGs):
// tests/fixtures/plain-english/verbs-settings.html and verbs-members.html. Each logs to #log.

const pe = usePlainEnglish('pvp');
const { plan } = pe;
const failed = failedSteps;
const messages = failureMessages;

describe('pagination', () => {
  it('next / previous (SVG chevrons), last and first (» « beside › ‹), page N', async () => {
    const r = await plan('verbs-members.html', ['Next page', 'Go to the previous page', 'Go to the last page', 'the first page', 'Go to page 3']);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('page next;page prev;page last;page first;page 3;');
  });

  it('must fail: no pager on the page; a page the pager does not offer', async () => {
    const a = await plan('verbs-settings.html', ['Next page']);
    expect(failed(a).length).toBe(1);
    expect(messages(a)).toMatch(/no pagination/);
    expect(a.log).toBe('');
    const b = await plan('verbs-members.html', ['Go to page 7']);
    expect(failed(b).length).toBe(1);
    expect(messages(b)).toMatch(/page 7.*no such control/);
    expect(b.log).toBe('');
  });
});

describe('bulk actions on ticked rows', () => {
  it('"Bulk remove them" / "Delete the selected members": the bar\'s trash, never a row\'s delete or the bar\'s ×', async () => {
    const r = await plan('verbs-members.html', ['Select the row for Grace Okafor', 'Select the row for Carla Diaz', 'Bulk remove them']);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('bulk delete 2;');
    const s = await plan('verbs-members.html', ['Select the row for Ben Ode', 'Delete the selected members', 'Download them']);
    expect(messages(s)).toBe('');
    expect(s.log).toBe('bulk delete 1;bulk export;');
  });

  it('must fail: nothing ticked; no bulk control with that purpose', async () => {
    const a = await plan('verbs-members.html', ['Delete them']);
    expect(failed(a).length).toBe(1);
    expect(messages(a)).toMatch(/no row is ticked/);
    expect(a.log).toBe('');
    const b = await plan('verbs-members.html', ['Select the row for Ben Ode', 'Archive them']);
    expect(failed(b).length).toBe(1);
    expect(messages(b)).toMatch(/archive.*no control outside the rows/i);
    expect(b.log).toBe('');
  });
});

describe('"Send X a password reset": the control named so in X\'s row or its menu', () => {
  it('opens the row menu and clicks "Reset password" there', async () => {
    const r = await plan('verbs-members.html', ['Send Grace Okafor a password reset']);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('menu Grace Okafor;reset password Grace Okafor;');
  });

  it('must fail: the row\'s menu has only "Reset two-factor"; nothing named so at all', async () => {
    const a = await plan('verbs-members.html', ['Send Ben Ode a password reset']);
    expect(failed(a).length).toBe(1);
    expect(messages(a)).toMatch(/password reset.*Ben Ode/);
    expect(a.log).toBe('menu Ben Ode;');
    const b = await plan('verbs-settings.html', ['Send GitHub a password reset']);
    expect(failed(b).length).toBe(1);
    expect(b.log).toBe('');
  });
});
