import type { Locator, Page } from 'playwright-core';
import type { CheckSpec } from './types.js';
import { q } from './locators.js';
import { quietly, readChecked, waitForDomChange } from '@ariadne/page';
// The page layer's text evidence; its module is not in @ariadne/page's index yet (see the
// wave-3 model report), so it is reached in the page package's build output directly.
import { describeTextEvidence, textEvidence, type TextEvidence } from '@ariadne/page';

// Assertions are evaluated by the service on the live page — a model's claim that
// something is visible is never taken as the result. Each check polls until it holds
// or its timeout passes (pages still loading), and renders as the Playwright Test
// `expect` that checks the same thing, for the exported spec.

export interface CheckOutcome {
  passed: boolean;
  actual?: string;
  /** A missing text: whether it is there but hidden, else the nearest visible texts. */
  evidence?: TextEvidence;
}

function norm(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Why an expected text is not visible: there but hidden (and why), else the nearest visible
 * texts (the page layer's text evidence). The report and a model planner read the same line.
 */
async function missingTextEvidence(page: Page, text: string): Promise<{ actual: string; evidence?: TextEvidence }> {
  const evidence = await quietly(page, () => textEvidence(page, text)).catch(() => null);
  if (!evidence) {
    const body = await page.locator('body').innerText({ timeout: 1000 }).catch(() => '');
    return { actual: `page text starts: ${JSON.stringify(body.slice(0, 200))}` };
  }
  return { actual: describeTextEvidence(text, evidence), evidence };
}

async function visibleTextCount(page: Page, text: string, exact = false): Promise<number> {
  // Exact: an element whose whole text is the text (whitespace and case aside), so
  // "Walk the dog" does not pass on "Walk the dog later".
  const loc = exact ? page.getByText(text, { exact: true }) : page.getByText(text);
  return loc.filter({ visible: true }).count().catch(() => 0);
}

function urlMatches(url: string, op: 'is' | 'contains', value: string): boolean {
  if (op === 'contains') return url.includes(value);
  if (url === value) return true;
  try {
    const u = new URL(url);
    // "url is /cart.html": a path compares with the path (and query).
    return value.startsWith('/') && (u.pathname === value || u.pathname + u.search === value);
  } catch {
    return false;
  }
}

async function once(page: Page, check: CheckSpec, loc: Locator | null): Promise<CheckOutcome> {
  switch (check.type) {
    case 'text_visible': {
      const exact = check.match === 'exact';
      const n = await visibleTextCount(page, check.text, exact);
      if (n === 0 && exact) {
        const loose = await visibleTextCount(page, check.text);
        if (loose > 0) {
          const sample = await page.getByText(check.text).filter({ visible: true }).first().innerText({ timeout: 500 }).catch(() => '');
          return { passed: false, actual: `not as a whole text, only inside ${JSON.stringify(sample.slice(0, 120))} (exact match, case included); say "contains" to accept a substring` };
        }
      }
      return { passed: n > 0, actual: n > 0 ? `${n} visible ${exact ? 'exact ' : ''}match${n > 1 ? 'es' : ''}` : undefined };
    }
    case 'text_hidden': {
      const n = await visibleTextCount(page, check.text, check.match === 'exact');
      return { passed: n === 0, actual: `${n} visible match${n === 1 ? '' : 'es'}` };
    }
    case 'url':
      return { passed: urlMatches(page.url(), check.op, check.value), actual: page.url() };
    case 'title': {
      const t = await page.title().catch(() => '');
      return { passed: check.op === 'is' ? t === check.value : t.includes(check.value), actual: t };
    }
    case 'element_text': {
      const t = (await loc!.innerText({ timeout: 1000 }).catch(() => null)) ?? (await loc!.inputValue({ timeout: 500 }).catch(() => ''));
      const passed = check.match === 'words' ? wordsRe(check.text).test(t.replace(/\s+/g, ' ')) : norm(t).includes(norm(check.text));
      return { passed, actual: t.slice(0, 300) };
    }
    case 'element_value': {
      const v = await loc!.inputValue({ timeout: 1000 }).catch(() => '');
      return { passed: v === check.value, actual: v };
    }
    case 'element_state': {
      const s = check.state;
      let ok = false;
      // A switch drawn without ARIA is read as drawn (readChecked); an unknown state passes neither way.
      if (s === 'checked' || s === 'unchecked') ok = (await readChecked(loc!, 1000)) === (s === 'checked');
      else if (s === 'enabled' || s === 'disabled') ok = (await loc!.isEnabled({ timeout: 1000 }).catch(() => null)) === (s === 'enabled');
      else ok = (await loc!.isVisible().catch(() => false)) === (s === 'visible');
      return { passed: ok, actual: ok ? s : `not ${s}` };
    }
    case 'email_received':
    case 'http':
      // Checked outside the page (CaseTools.assertOutside), never here.
      return { passed: false, actual: `${check.type} is not a page check` };
  }
}

/**
 * Try the check until it passes or timeoutMs passes; the last outcome is the answer. A
 * check that does not hold yet is tried again as soon as the page changes (its next DOM
 * mutation, or a new document; 20–150 ms apart), where a fixed poll would add up to a
 * whole interval to every assertion that waits for the page.
 */
export async function evaluateCheck(page: Page, check: CheckSpec, loc: Locator | null, timeoutMs: number, signal?: AbortSignal): Promise<CheckOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await once(page, check, loc);
    if (r.passed || Date.now() >= deadline || signal?.aborted) {
      if (!r.passed && check.type === 'text_visible' && !r.actual) Object.assign(r, await missingTextEvidence(page, check.text));
      return r;
    }
    // The wait is Ariadne's observation, not the test's: left out of traces (quiet.ts).
    await quietly(page, () => waitForDomChange(page, 20, Math.max(20, Math.min(150, deadline - Date.now()))));
  }
}

/** The same check as Playwright Test code; `target` is the element's locator code (page.xxx). */
export function expectCode(check: CheckSpec, target?: string, pageVar = 'page'): string {
  const at = (code: string) => (pageVar === 'page' ? code : code.replace(/^page\./, `${pageVar}.`));
  switch (check.type) {
    case 'text_visible':
      return `await expect(${pageVar}.getByText(${textArg(check)}).filter({ visible: true }).first()).toBeVisible();`;
    case 'text_hidden':
      return `await expect(${pageVar}.getByText(${textArg(check)}).filter({ visible: true })).toHaveCount(0);`;
    case 'url':
      if (check.op === 'contains') return `await expect(${pageVar}).toHaveURL(/${escapeRegExp(check.value)}/);`;
      return check.value.startsWith('/')
        ? `await expect(${pageVar}).toHaveURL(/^[^?#]*${escapeRegExp(check.value)}(?:[?#].*)?$/);`
        : `await expect(${pageVar}).toHaveURL(${q(check.value)});`;
    case 'title':
      return check.op === 'is' ? `await expect(${pageVar}).toHaveTitle(${q(check.value)});` : `await expect(${pageVar}).toHaveTitle(/${escapeRegExp(check.value)}/);`;
    case 'element_text':
      if (check.match === 'words') return `await expect(${at(target!)}).toContainText(${wordsRe(check.text).toString()});`;
      return `await expect(${at(target!)}).toContainText(${q(check.text)}, { ignoreCase: true });`;
    case 'element_value':
      return `await expect(${at(target!)}).toHaveValue(${q(check.value)});`;
    case 'element_state': {
      const m = { checked: 'toBeChecked()', unchecked: 'not.toBeChecked()', enabled: 'toBeEnabled()', disabled: 'toBeDisabled()', visible: 'toBeVisible()', hidden: 'toBeHidden()' }[check.state];
      return `await expect(${at(target!)}).${m};`;
    }
    case 'email_received':
      // The exported spec reads the inbox through Ariadne's API (see spec.ts's inbox helper).
      return `expect(await inbox.waitFor({ ${[check.from ? `from: ${q(check.from)}` : '', check.subject ? `subject: ${q(check.subject)}` : ''].filter(Boolean).join(', ')} })).toBeTruthy();`;
    case 'http': {
      const call = `await request.fetch(${q(check.url)}, { method: ${q(check.method)} })`;
      const lines = [`const response = ${call};`];
      if (check.status !== undefined) lines.push(`expect(response.status()).toBe(${check.status});`);
      if (check.contains !== undefined) lines.push(`expect(await response.text()).toContain(${q(check.contains)});`);
      return `{ ${lines.join(' ')} }`;
    }
  }
}

/** The text as whole words, any case: "Paid" matches "Status: Paid", not "Unpaid". */
function wordsRe(text: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(text.trim()).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
}

function textArg(check: { text: string; match?: 'exact' | 'contains' }): string {
  return check.match === 'exact' ? `${q(check.text)}, { exact: true }` : q(check.text);
}

export function describeCheck(check: CheckSpec): string {
  switch (check.type) {
    case 'text_visible': return `"${check.text}" is visible`;
    case 'text_hidden': return `"${check.text}" is not visible`;
    case 'url': return `URL ${check.op} "${check.value}"`;
    case 'title': return `title ${check.op} "${check.value}"`;
    case 'element_text': return `${check.ref ?? check.description} contains "${check.text}"`;
    case 'element_value': return `${check.ref ?? check.description} has value "${check.value}"`;
    case 'element_state': return `${check.ref ?? check.description} is ${check.state}`;
    case 'email_received': return `an email arrived${check.from ? ` from "${check.from}"` : ''}${check.subject ? ` with subject "${check.subject}"` : ''}`;
    case 'http': return `${check.method} ${check.url} answers${check.status !== undefined ? ` ${check.status}` : ''}${check.contains !== undefined ? ` containing "${check.contains}"` : ''}`;
  }
}
