import type { Page } from 'playwright-core';

// Ariadne's own probing of a page (snapshots for resolution, counts, in-page checks, the
// locator proof) is not the test's story, and while a Playwright trace is recording every
// evaluate / waitForTimeout there costs before-and-after DOM snapshots on the step's path.
// Run such work as Playwright's internal calls: they are left out of traces (and of
// snapshots); the action itself and the assertions stay in.
//
// playwright-core's client marks calls made inside `_wrapApiCall(fn, { internal: true })`
// internal (an async-context zone: every call fn makes, awaited or started there). It is
// not public API: without it, the calls simply stay traced.

type Wrapper = { _wrapApiCall?: (fn: () => Promise<unknown>, opts: { internal: boolean }) => Promise<unknown> };

export function quietly<T>(page: Page, fn: () => Promise<T>): Promise<T> {
  const wrap = (page as unknown as Wrapper)._wrapApiCall;
  if (typeof wrap !== 'function') return fn();
  // The wrapper prefixes the message of whatever fn throws with its own name
  // ("page._wrapApiCall: No element ..."): our errors leave with their own words.
  return (wrap.call(page, fn, { internal: true }) as Promise<T>).catch((err: unknown) => {
    if (err instanceof Error) err.message = err.message.replace(/^(?:\w+\.)?_wrapApiCall:\s*/, '');
    throw err;
  });
}
