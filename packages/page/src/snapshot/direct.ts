import type { Page } from 'playwright-core';

// The AI snapshot without Playwright's per-call machinery.
//
// `page.ariaSnapshotJSON({ mode: 'ai' })` goes client → dispatcher → server → a selector query
// and a utility-script evaluation around the one in-page call that matters,
// `injected.ariaSnapshotJSON(body, { mode: 'ai' })`. On the shop page that costs ~0.65 ms of Node
// and ~1.6 ms of Chromium per call; calling the same function of the same injected script over
// the frame's own CDP session costs ~0.13 ms and ~1.05 ms (bench/snapshot-call-cost.mjs). It is
// the same instance Playwright uses, so refs, their reuse across snapshots and `aria-ref=`
// resolution are Playwright's own, whichever path took the snapshot.
//
// This reaches into playwright-core's in-process server (`toImpl`, the frame's utility
// context, its CDP session). Every piece is checked; when one is missing (another version, a
// remote browser, no utility world yet) or the call fails for any reason but a timeout, the
// answer is `undefined` and the caller takes the public path, which also produces the proper
// error. Pages with child frames always take the public path: Playwright stitches the frames'
// snapshots there. tests/direct-snapshot.test.ts checks that this path is the one taken on the
// pinned version and that both paths give the same tree.

interface CdpSession { send(method: string, params?: Record<string, unknown>): Promise<unknown> }
interface ServerContext {
  delegate?: { _client?: CdpSession };
  injectedScript?: () => Promise<{ _objectId?: string }>;
}
interface ServerPage { mainFrame?: () => { existingContext?: (world: 'utility') => ServerContext | null } }
interface CallResult {
  result?: { value?: { json: unknown; iframes: number } | null };
  exceptionDetails?: unknown;
}

// Runs in Playwright's utility world with `this` = its InjectedScript. `null` when the document
// has no body yet or the tree shows an iframe (both: the public path).
const IN_PAGE = `function (options) {
  const root = document.body || document.querySelector('frameset');
  if (!root) return null;
  const s = this.ariaSnapshotJSON(root, options);
  return { json: s.json, iframes: s.iframeRefs.filter((r) => r in s.iframeDepths).length };
}`;
const OPTIONS = [{ value: { mode: 'ai' } }];

/** Snapshots this process took by each path (for tests and benches). */
export const directSnapshotStats = { direct: 0, fallback: 0 };

function serverPage(page: Page): ServerPage | undefined {
  const connection = (page as unknown as { _connection?: { toImpl?: (o: unknown) => unknown } })._connection;
  if (typeof connection?.toImpl !== 'function') return undefined;
  try {
    return connection.toImpl(page) as ServerPage | undefined;
  } catch {
    return undefined;
  }
}

export class SnapshotTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Subscribe to what must abort a call in flight (a dialog opening); returns the unsubscribe. */
export type StallWatch = (abort: (err: Error) => void) => () => void;

/**
 * The page's full AI snapshot JSON by the direct path, or `undefined` when the caller must use
 * `page.ariaSnapshotJSON`. Rejects only with a TimeoutError, or with what `onStall` aborts with
 * (a dialog opened while the call was in flight). Nothing outlives the call: no timer, no
 * subscription (a long-lived promise raced against every call would keep each one's reaction).
 */
export async function directSnapshotJSON(page: Page, timeoutMs: number, onStall?: StallWatch): Promise<unknown | undefined> {
  if (page.frames().length > 1) return miss();
  const context = serverPage(page)?.mainFrame?.()?.existingContext?.('utility');
  const client = context?.delegate?._client;
  if (!context || typeof context.injectedScript !== 'function' || typeof client?.send !== 'function') return miss();
  const call = (async () => {
    const injected = await context.injectedScript!();
    if (!injected?._objectId) return undefined;
    const r = await client.send('Runtime.callFunctionOn', {
      objectId: injected._objectId,
      functionDeclaration: IN_PAGE,
      arguments: OPTIONS,
      returnByValue: true,
    }) as CallResult;
    const value = r.exceptionDetails ? null : r.result?.value;
    return value && value.iframes === 0 ? value.json : undefined;
  })().catch(() => undefined); // a navigation, a closed target, a JS error: the public path tells
  return new Promise<unknown | undefined>((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      settle();
    };
    const timer = setTimeout(() => finish(() => reject(new SnapshotTimeoutError(`page.ariaSnapshotJSON: Timeout ${timeoutMs}ms exceeded.`))), timeoutMs);
    const unsubscribe = onStall?.((err) => finish(() => reject(err))) ?? (() => {});
    void call.then((json) => finish(() => {
      if (json === undefined) return resolve(miss());
      directSnapshotStats.direct++;
      resolve(json);
    }));
  });
}

function miss(): undefined {
  directSnapshotStats.fallback++;
  return undefined;
}
