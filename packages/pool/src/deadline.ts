import { AppError } from '@ariadne/schema';

// Deadlines for work that waits on a page. A page stuck in `while (true) {}` never
// answers Playwright calls that run script in it, and Playwright calls without a timeout
// of their own (evaluate, title, content) then wait for ever. Every operation therefore
// races a deadline: the caller gets 504 operation_timeout, the stuck call is abandoned
// (it settles when the tab or its context closes).

/** Resolve with p, or reject with operation_timeout after ms. */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string, details: Record<string, unknown> = {}): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(operationTimeout(what, ms, details)), ms);
    timer.unref();
  });
  p.catch(() => {}); // an abandoned call that fails later is not an unhandled rejection
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

export function operationTimeout(what: string, ms: number, details: Record<string, unknown> = {}): AppError {
  return new AppError('operation_timeout', `${what} did not finish within ${ms} ms: the page does not answer (a script stuck in a loop, a huge DOM, or a hung renderer).`, {
    timeoutMs: ms,
    ...details,
    hint: 'Close the tab (DELETE .../pages/:pageId) or open a new one, or delete the session; other tabs and sessions are not affected.',
  });
}

/** Wait at most ms for p; say whether it settled. Never rejects. */
export async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    p.then(() => true, () => true),
    new Promise<boolean>((r) => { timer = setTimeout(() => r(false), ms); timer.unref(); }),
  ]);
  clearTimeout(timer);
  return done;
}
