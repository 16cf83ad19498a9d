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

// The wrapper also prefixes the message of an error thrown inside it with its own name
// ("page._wrapApiCall: No element ..."): the message fn's error had is put back, so what
// reaches a user (a run report, an API error) never names a Playwright internal.
export async function quietly<T>(page: Page, fn: () => Promise<T>): Promise<T> {
  const wrap = (page as unknown as Wrapper)._wrapApiCall;
  if (typeof wrap !== 'function') return fn();
  let thrown: { error: unknown; message: string } | undefined;
  try {
    return (await wrap.call(page, async () => {
      try {
        return await fn();
      } catch (err) {
        if (err instanceof Error) thrown = { error: err, message: err.message };
        throw err;
      }
    }, { internal: true })) as T;
  } catch (err) {
    if (thrown && err === thrown.error) (err as Error).message = thrown.message;
    throw err;
  }
}
