import type { Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { resolveRef } from '../targeting/resolve.js';

// Every inspection tool takes a ref (from the snapshot) or a selector: the seed-002
// shorthands testid:x, data-test:x, data-cy:x, or any Playwright selector (CSS,
// text=..., role=..., xpath=...). A selector Playwright cannot parse is a 400.

export interface TargetSpec {
  ref?: string;
  selector?: string;
}

export interface Target {
  /** Exactly the target element (the first match for a selector). */
  locator: Locator;
  /** Every match, for selector queries. */
  all: Locator;
  ref?: string;
  selector?: string;
  /** The selector as given to Playwright after shorthand expansion. */
  resolvedSelector?: string;
  matches: number;
}

const SHORTHAND = /^(testid|data-testid|data-test|data-cy):([\s\S]+)$/;

function cssString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function normalizeSelector(selector: string): string {
  const s = selector.trim();
  if (!s) throw new AppError('invalid_selector', 'selector is empty.', { selector });
  const m = SHORTHAND.exec(s);
  if (m) {
    const attr = m[1] === 'testid' ? 'data-testid' : m[1];
    return `[${attr}=${cssString(m[2])}]`;
  }
  return s;
}

async function countSelector(state: PageState, selector: string, given: string): Promise<{ all: Locator; count: number }> {
  let all: Locator;
  try {
    all = state.page.locator(selector);
    return { all, count: await all.count() };
  } catch (err) {
    const first = ((err as Error).message ?? String(err)).replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0];
    if (/closed|crash/i.test(first)) throw err;
    throw new AppError('invalid_selector', `Invalid selector "${given}": ${first.replace(/^locator\.count: /, '')}`, { selector: given });
  }
}

export async function resolveInspectTarget(state: PageState, spec: TargetSpec, opts: { allowNone?: boolean } = {}): Promise<Target> {
  state.assertNoDialog();
  if (spec.ref && spec.selector) throw new AppError('invalid_request', 'Give either ref or selector, not both.', { field: 'selector' });
  if (spec.ref) {
    const r = await resolveRef(state, spec.ref);
    return { locator: r.locator, all: r.locator, ref: spec.ref, matches: 1 };
  }
  if (spec.selector === undefined) throw new AppError('invalid_request', 'ref or selector is required.', { field: 'ref' });
  const resolved = normalizeSelector(spec.selector);
  const { all, count } = await countSelector(state, resolved, spec.selector);
  if (count === 0 && !opts.allowNone) {
    throw new AppError('target_not_found', `No element matches selector "${spec.selector}".`, {
      selector: spec.selector,
      resolvedSelector: resolved,
      url: state.page.url(),
      hint: 'Check the selector with inspect/query, or take a snapshot and use a ref.',
    });
  }
  return { locator: all.first(), all, selector: spec.selector, resolvedSelector: resolved, matches: count };
}
