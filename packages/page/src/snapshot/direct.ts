import type { Frame, Page } from 'playwright-core';
import { SURFACE_SOURCE } from '../bridge/surface.generated.js';
import { applySurface, type SurfaceResult } from '../surface/apply.js';
import { normalizeTree } from './tree.js';

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
interface ServerFrame { _id?: string; existingContext?: (world: 'utility') => ServerContext | null }
interface ServerPage { mainFrame?: () => ServerFrame }
interface CallResult {
  result?: { value?: { json: unknown; iframes: number; surface?: SurfaceResult | { error: string } | null; needModule?: true } | null };
  exceptionDetails?: unknown;
}

// The surface module (bridge/injected/surface.ts), compiled once per utility world and kept on
// the InjectedScript: `.surface(injected, options)`, `.registerRef(injected, element)`.
export const SURFACE_MODULE = `(this.__ariadneSurfaceModule || (this.__ariadneSurfaceModule = (function () { ${SURFACE_SOURCE}; return __ariadneSurface; })()))`;
const SURFACE_RUN = `${SURFACE_MODULE}.surface`;

// Runs in Playwright's utility world with `this` = its InjectedScript. `null` when the document
// has no body yet or the tree shows an iframe (both: the public path). With `surface`, the
// surface pass runs on the snapshot just taken, in the same call.
//
// Two forms: IN_PAGE carries the module's text (about 100 KB) and compiles it when the world has
// none yet; IN_PAGE_LIGHT refers to the compiled one and answers { needModule } without taking a
// snapshot when it is missing (a new document). So the text crosses the pipe and is parsed once
// per document, not on every snapshot.
const inPage = (run: string, light: boolean) => `function (options, surface) {
  ${light ? 'if (surface && !this.__ariadneSurfaceModule) return { needModule: true };' : ''}
  const root = document.body || document.querySelector('frameset');
  if (!root) return null;
  const s = this.ariaSnapshotJSON(root, options);
  const iframes = s.iframeRefs.filter((r) => r in s.iframeDepths).length;
  let extra = null;
  if (surface && iframes === 0) {
    try { extra = ${run}(this, surface); } catch (e) { extra = { error: String(e && e.stack || e) }; }
  }
  return { json: s.json, iframes, surface: extra };
}`;
const IN_PAGE = inPage(SURFACE_RUN, false);
const IN_PAGE_LIGHT = inPage('this.__ariadneSurfaceModule.surface', true);
// The surface pass alone, on the snapshot the frame's last ariaSnapshot call took (public path).
const SURFACE_ONLY = `function (surface) {
  try { return ${SURFACE_RUN}(this, surface); } catch (e) { return { error: String(e && e.stack || e) }; }
}`;
const OPTIONS = { value: { mode: 'ai' } };

export interface SnapshotPassOptions {
  /**
   * Run the surface pass (inferred names, field kinds, clickable icons and words the tree leaves
   * out). Default on; off gives Playwright's tree exactly (benches compare the two).
   */
  surface?: boolean;
}

/** Surface passes that threw in the page (reported by tests; the snapshot goes on without). */
export const surfaceStats = { runs: 0, errors: 0, lastError: '' };

/**
 * Snapshots this process took by each path, and how often the surface module's text was sent
 * (once per document; for tests and benches).
 */
export const directSnapshotStats = { direct: 0, fallback: 0, moduleSent: 0 };

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
export async function directSnapshotJSON(page: Page, timeoutMs: number, onStall?: StallWatch, pass: SnapshotPassOptions = {}): Promise<unknown | undefined> {
  const surface = pass.surface !== false;
  if (page.frames().length > 1) return miss();
  const context = serverPage(page)?.mainFrame?.()?.existingContext?.('utility');
  const client = context?.delegate?._client;
  if (!context || typeof context.injectedScript !== 'function' || typeof client?.send !== 'function') return miss();
  const call = (async () => {
    const injected = await context.injectedScript!();
    if (!injected?._objectId) return undefined;
    const send = (functionDeclaration: string) => client.send('Runtime.callFunctionOn', {
      objectId: injected._objectId,
      functionDeclaration,
      arguments: [OPTIONS, { value: surface ? {} : null }],
      returnByValue: true,
    }) as Promise<CallResult>;
    let r = await send(IN_PAGE_LIGHT);
    if (!r.exceptionDetails && r.result?.value?.needModule) {
      directSnapshotStats.moduleSent++;
      r = await send(IN_PAGE);
    }
    const value = r.exceptionDetails ? null : r.result?.value;
    if (!value || value.iframes !== 0) return undefined;
    if (!surface) return value.json;
    const result = await withListeners({ client, objectId: injected._objectId, contextId: (context.delegate as { _contextId?: number })._contextId }, surfaceResult(value.surface));
    return applySurface(normalizeTree(value.json), result);
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

function surfaceResult(r: SurfaceResult | { error: string } | null | undefined): SurfaceResult | null {
  surfaceStats.runs++;
  if (r && 'error' in r) {
    surfaceStats.errors++;
    surfaceStats.lastError = r.error;
    return null;
  }
  return r ?? null;
}

function serverFrame(frame: Frame): ServerFrame | undefined {
  const connection = (frame as unknown as { _connection?: { toImpl?: (o: unknown) => unknown } })._connection;
  if (typeof connection?.toImpl !== 'function') return undefined;
  try {
    return connection.toImpl(frame) as ServerFrame | undefined;
  } catch {
    return undefined;
  }
}

/** The page's frame a CDP frame id names (Playwright's frame id is Chromium's). */
export function frameOfId(page: Page, frameId: string): Frame | undefined {
  return page.frames().find((f) => serverFrame(f)?._id === frameId);
}

/** A frame's utility world: its InjectedScript's object id and the CDP session to call it on. */
export async function utilityInjected(frame: Frame): Promise<{ client: CdpSession; objectId: string; contextId?: number } | undefined> {
  const context = serverFrame(frame)?.existingContext?.('utility');
  const client = context?.delegate?._client;
  if (!context || typeof context.injectedScript !== 'function' || typeof client?.send !== 'function') return undefined;
  try {
    const injected = await context.injectedScript();
    if (!injected?._objectId) return undefined;
    return { client, objectId: injected._objectId, contextId: (context.delegate as { _contextId?: number })._contextId };
  } catch {
    return undefined;
  }
}

/**
 * The surface pass on a tree Playwright's public call just took (pages with frames): one call per
 * frame on the snapshot that frame kept, edits applied to the stitched tree. A frame that cannot
 * be reached keeps Playwright's nodes as they are.
 */
export async function surfacePublicTree(page: Page, raw: unknown, timeoutMs = 2000): Promise<unknown> {
  const tree = normalizeTree(raw);
  // A frame that does not answer in time (a busy page, a dialog) keeps Playwright's nodes.
  const bounded = <T>(p: Promise<T>): Promise<T | null> => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([p, new Promise<null>((r) => { timer = setTimeout(() => r(null), timeoutMs); })]).finally(() => clearTimeout(timer));
  };
  const results = await Promise.all(page.frames().map((frame) => bounded((async () => {
    const u = await utilityInjected(frame);
    if (!u) return null;
    const r = await u.client.send('Runtime.callFunctionOn', {
      objectId: u.objectId,
      functionDeclaration: SURFACE_ONLY,
      arguments: [{ value: {} }],
      returnByValue: true,
    }).catch(() => null) as CallResult | null;
    const value = r && !r.exceptionDetails ? (r.result?.value as unknown as SurfaceResult | { error: string } | null) : null;
    const result = await withListeners(u, surfaceResult(value));
    // A child frame's root-level nodes sit under its iframe node, which it cannot name: left as they are.
    if (result && frame !== page.mainFrame()) result.children = result.children.filter((c) => c.parent !== null);
    return result;
  })().catch(() => null))));
  let out = tree;
  for (const r of results) out = applySurface(out, r);
  return out;
}

/** Event types a click is made of: a listener for any of them makes an element clickable. */
const CLICK_TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend']);
const SURFACE_WITH = `function (...listeners) {
  try { return ${SURFACE_RUN}(this, { listeners }); } catch (e) { return { error: String(e && e.stack || e) }; }
}`;

const PROBE = `function () { return ${SURFACE_MODULE}.listenerProbe(this); }`;
const PROBE_GROUP = 'ariadne-surface-probe';

/**
 * When the pass saw icons with no sign of a handler (no pointer cursor, onclick, tabindex), ask
 * Chromium which of them, or of their near ancestors (a list delegating to its items), carry click
 * listeners, and run the pass again with those: a delegated list's icons then count. A few
 * calls per element (the ladder's check, locate.ts); costs round trips only on pages
 * with such icons. (A single call for the whole document, depth -1 with pierce, made Chromium
 * 156's renderer crash on the next in-page call; without pierce it lists nothing below the root.)
 */
async function withListeners(u: { client: CdpSession; objectId: string; contextId?: number }, first: SurfaceResult | null): Promise<SurfaceResult | null> {
  if (!first?.unproven) return first;
  try {
    const probe = await u.client.send('Runtime.callFunctionOn', { objectId: u.objectId, functionDeclaration: PROBE, objectGroup: PROBE_GROUP }) as { result?: { objectId?: string } };
    const arrayId = probe.result?.objectId;
    if (!arrayId) return first;
    const props = await u.client.send('Runtime.getProperties', { objectId: arrayId, ownProperties: true }) as { result?: { name: string; value?: { objectId?: string } }[] };
    const ids = (props.result ?? []).filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
    // Chromium lists only the listeners of the world the node object belongs to: ask about each
    // element as the page's own (main) world sees it.
    const hasClick = async (objectId: string): Promise<boolean> => {
      const d = await u.client.send('DOM.describeNode', { objectId }) as { node?: { backendNodeId?: number } };
      if (!d.node?.backendNodeId) return false;
      const m = await u.client.send('DOM.resolveNode', { backendNodeId: d.node.backendNodeId, objectGroup: PROBE_GROUP }) as { object?: { objectId?: string } };
      if (!m.object?.objectId) return false;
      const r = await u.client.send('DOMDebugger.getEventListeners', { objectId: m.object.objectId, depth: 0 }) as { listeners?: { type: string }[] };
      return (r.listeners ?? []).some((l) => CLICK_TYPES.has(l.type));
    };
    const listened = (await Promise.all(ids.map((objectId) => hasClick(objectId).then((yes) => (yes ? objectId : null), () => null))))
      .filter((x): x is string => x !== null);
    if (!listened.length) return first;
    const r = await u.client.send('Runtime.callFunctionOn', {
      objectId: u.objectId,
      functionDeclaration: SURFACE_WITH,
      arguments: listened.map((objectId) => ({ objectId })),
      returnByValue: true,
    }) as { result?: { value?: SurfaceResult | { error: string } | null }; exceptionDetails?: unknown };
    if (r.exceptionDetails) return first;
    const second = r.result?.value;
    if (second && 'error' in second) return first;
    return second ?? first;
  } catch {
    return first; // the listener check is a bonus: Playwright's tree and the first pass stand
  } finally {
    void u.client.send('Runtime.releaseObjectGroup', { objectGroup: PROBE_GROUP }).catch(() => {});
  }
}
