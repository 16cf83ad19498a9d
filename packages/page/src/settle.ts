import type { Page, Request } from 'playwright-core';
import { PENDING_FRAMES_KEY } from './frame-watch.js';

// After an action: wait until the page has settled, by observation rather than a fixed
// sleep. Requests the action started are waited for (long-lived ones such as WebSockets,
// event streams and media are not: they never finish), then the DOM must stay quiet for a
// short window while their answers render. Everything is capped, and the answer says what
// was waited for, so an agent can tell "settled" from "gave up at the cap". A change made
// later by a timer alone (no request) is not waited for: use wait_for for those.

export type SettlePolicy = 'auto' | 'none' | number;

export interface SettleReport {
  /** quiet: requests done and DOM quiet; cap: still busy at the cap; none: not asked to wait. */
  state: 'quiet' | 'cap' | 'none';
  waitedMs: number;
  /** Requests started from the action's start that were waited for. */
  requests: number;
  /** DOM mutations seen while waiting. */
  mutations: number;
}

export const SETTLE_DEFAULT_CAP_MS = 2000;
/** How long the DOM must stay unchanged, after the action's requests, to count as settled. */
export const QUIET_WINDOW_MS = 25;

/** The longest a look waits for an animation frame it is owed (a frame is ~16 ms). */
const FRAME_WAIT_MS = 100;

const LONG_LIVED = new Set(['websocket', 'eventsource', 'media', 'manifest', 'ping']);

export interface SettleResult {
  report: SettleReport;
  /** document.title when the last look at the page answered (none if it did not). */
  title?: string;
  /**
   * The wait ended with its first look at the page, and that look saw no request start
   * and no DOM change from when it was sent to when it answered: work sent to the page
   * right behind it (a snapshot) saw the page as settled.
   */
  firstLookSettled: boolean;
}

export interface RequestWatch {
  /** Wait for the page to settle (bounded by the policy), then stop watching. */
  settle(): Promise<SettleResult>;
  /** Stop watching without waiting (the action failed or a dialog blocks the page). */
  stop(): void;
  /** Requests seen so far (0 before any): with none, settle() looks at the page once. */
  readonly requestsSeen: number;
  /** Does settle() wait at all (false for the policy 'none')? */
  readonly waits: boolean;
}

/** Start watching the page's requests: call before the action so none is missed. */
export function watchRequests(page: Page, policy: SettlePolicy | undefined): RequestWatch {
  const cap = policy === 'none' ? 0 : typeof policy === 'number' ? policy : SETTLE_DEFAULT_CAP_MS;
  const inflight = new Set<Request>();
  let seen = 0;
  let wake: (() => void) | null = null;
  const onRequest = (r: Request) => {
    if (LONG_LIVED.has(r.resourceType())) return;
    inflight.add(r);
    seen++;
  };
  const onDone = (r: Request) => {
    if (inflight.delete(r) && inflight.size === 0) wake?.();
  };
  const stop = () => {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
    wake?.();
  };
  if (cap > 0) {
    page.on('request', onRequest);
    page.on('requestfinished', onDone);
    page.on('requestfailed', onDone);
  }

  async function settle(): Promise<SettleResult> {
    const started = Date.now();
    if (cap <= 0) return { report: { state: 'none', waitedMs: 0, requests: 0, mutations: 0 }, firstLookSettled: false };
    const deadline = started + cap;
    let mutations = 0;
    let quiet = false;
    let looks = 0;
    let title: string | undefined;
    let firstLookSettled = false;
    try {
      while (Date.now() < deadline) {
        if (inflight.size > 0) {
          // Requests first: their answers are what usually renders next.
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, Math.max(0, deadline - Date.now())).unref?.();
          });
          wake = null;
          continue;
        }
        const left = deadline - Date.now();
        // No request seen: one macrotask in the page is enough to let any request the
        // action queued surface here (and costs one round trip, so a static reaction
        // answers at the floor): the request event comes over the same CDP session as the
        // probe's answer, so it reaches us first. A fetch started from a timer of 0 after the
        // click is seen too, and one from the next animation frame: the look waits for
        // that frame when the page has asked for one (tests/settle.test.ts, defer=).
        // After requests: their answers render a moment after they finish, so the DOM
        // must be quiet for a short window.
        const window = seen === 0 ? 0 : QUIET_WINDOW_MS;
        const probe = await quietProbe(page, Math.min(window, left), left).catch(() => null);
        looks++;
        if (!probe) break; // page closed or navigating: nothing left to observe here
        mutations += probe.mutations;
        title = probe.title;
        // A request that started while the DOM was observed sends us round again.
        if (probe.quiet && inflight.size === 0) {
          quiet = true;
          firstLookSettled = looks === 1 && seen === 0 && probe.mutations === 0;
          break;
        }
      }
    } finally {
      stop();
    }
    return {
      report: { state: quiet ? 'quiet' : 'cap', waitedMs: Date.now() - started, requests: seen, mutations },
      ...(title !== undefined ? { title } : {}),
      firstLookSettled,
    };
  }

  return {
    settle,
    stop,
    get requestsSeen() {
      return seen;
    },
    waits: cap > 0,
  };
}

/**
 * In the page: resolve once the document has had no mutation for `quietMs` (or at the
 * cap), with the document's title then. When the page has animation-frame callbacks
 * pending (frame-watch.ts), or the look cannot tell, the next frame must also have run:
 * what an action put there (a render, a fetch) is part of its reaction. One round trip;
 * the observer is always disconnected.
 */
async function quietProbe(page: Page, quietMs: number, capMs: number): Promise<{ quiet: boolean; mutations: number; title: string }> {
  const inPage = page.evaluate(
    ([q, c, key, frameWaitMs]) =>
      new Promise<{ quiet: boolean; mutations: number; title: string }>((resolve) => {
        const t0 = performance.now();
        let last = t0;
        let count = 0;
        const mo = new MutationObserver((records) => {
          count += records.length;
          last = performance.now();
        });
        mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        const pendingFrames = (window as unknown as Record<symbol, (() => number) | undefined>)[Symbol.for(key)];
        // Child frames have their own counters, out of reach from here: wait for a frame.
        const frameOwed = () => typeof pendingFrames !== 'function' || pendingFrames() > 0 || window.frames.length > 0;
        let frameAsked = false;
        let framePassed = false;
        const tick = () => {
          const now = performance.now();
          const quiet = now - last >= q;
          if (quiet && !framePassed && now - t0 < c && frameOwed()) {
            if (!frameAsked) {
              frameAsked = true;
              const passed = () => {
                if (framePassed) return;
                framePassed = true;
                setTimeout(tick, 0); // a task after the frame: what it started surfaces first
              };
              requestAnimationFrame(passed);
              setTimeout(passed, frameWaitMs); // a page that renders no frames (hidden) is not waited on
            }
            return;
          }
          if (quiet || now - t0 >= c) {
            mo.disconnect();
            resolve({ quiet, mutations: count + mo.takeRecords().length, title: document.title });
          } else setTimeout(tick, Math.max(1, q - (now - last)));
        };
        setTimeout(tick, q);
      }),
    [quietMs, capMs, PENDING_FRAMES_KEY, FRAME_WAIT_MS] as const,
  );
  // The page may be stuck (a busy loop): never wait past the cap here either.
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), capMs + 50);
  });
  try {
    const r = await Promise.race([inPage, cap]);
    if (!r) throw new Error('quiet probe timed out');
    return r;
  } finally {
    clearTimeout(timer);
    inPage.catch(() => {});
  }
}

/**
 * Wait until the document changes (its first DOM mutation), but at least `minMs` and at
 * most `maxMs`: a search that found nothing yet looks again as soon as something new
 * arrives (cards rendered from an API answer) instead of after a fixed pause, without
 * spinning on a page that never stops changing. The page between two documents (the
 * probe cannot run there) counts as a change after a short pause.
 */
export async function waitForDomChange(page: Page, minMs: number, maxMs: number): Promise<void> {
  const started = Date.now();
  const changed = await Promise.race([
    page.evaluate(
      ([lo, hi]) =>
        new Promise<boolean>((resolve) => {
          const t0 = performance.now();
          let seen = false;
          let timer = 0;
          const done = (v: boolean) => {
            mo.disconnect();
            clearTimeout(timer);
            resolve(v);
          };
          const mo = new MutationObserver(() => {
            seen = true;
            const left = lo - (performance.now() - t0);
            if (left <= 0) done(true);
            else {
              clearTimeout(timer);
              timer = setTimeout(() => done(true), left) as unknown as number;
            }
          });
          mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          timer = setTimeout(() => done(seen), hi) as unknown as number;
        }),
      [minMs, maxMs] as const,
    ).catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), maxMs + 100).unref?.()),
  ]);
  if (changed === null) {
    // No answer (navigating, closed, or the page is busy): a plain pause, within the bound.
    const left = Math.min(minMs, maxMs - (Date.now() - started));
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
}
