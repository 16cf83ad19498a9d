import type { ElementHandle, Frame, Locator } from 'playwright-core';
import type { PageState } from '../page-state.js';
import { SURFACE_MODULE, utilityInjected } from '../snapshot/direct.js';

// "The ref of this element" for anything that found an element another way (a selector target,
// inspect/dom/explore answers): read from the ref map Playwright's injected script keeps for
// `aria-ref=` in the element's frame (seams §1), the map of the latest snapshot, so a ref read
// here resolves now. An element the snapshot gave no ref (a word in prose, an element with role
// none) can be registered in that same map, so the ref resolves like any other.
// The one way to reach that map: Playwright's own handle on the frame's utility world.

interface CdpSession { send(method: string, params?: Record<string, unknown>): Promise<unknown> }

export interface RefsForElementsOptions {
  /** Take a fresh full-page snapshot first (default true): refs are read from the latest one. */
  snapshot?: boolean;
  /** Register a ref for an element that has none (default true); false answers null for it. */
  assign?: boolean;
  timeoutMs?: number;
}

const REFS_OF = `function (assign, ...els) {
  const m = ${SURFACE_MODULE};
  return els.map((el) => !el ? null : assign ? m.registerRef(this, el) : m.refOf(this, el));
}`;
const GROUP = 'ariadne-refs-of';

/**
 * Refs of DOM nodes of one frame (by backend node id, which every CDP session of the frame's
 * target shares): each node is resolved into the frame's utility world and all are read in one
 * call. null for a node that is gone, has no ref (and `assign` is off), or a frame not reached.
 */
export async function refsOfNodes(frame: Frame, backendNodeIds: (number | null)[], assign: boolean): Promise<(string | null)[]> {
  const none = backendNodeIds.map(() => null);
  const u = await utilityInjected(frame);
  if (!u || u.contextId === undefined) return none;
  const client: CdpSession = u.client;
  try {
    // The nodes were found in another world (the page's, or Ariadne's): adopt them in the utility world.
    const objects = await Promise.all(backendNodeIds.map((backendNodeId) => backendNodeId === null ? null : client
      .send('DOM.resolveNode', { backendNodeId, executionContextId: u.contextId, objectGroup: GROUP })
      .then((r) => (r as { object?: { objectId?: string } }).object?.objectId ?? null, () => null)));
    const r = await client.send('Runtime.callFunctionOn', {
      objectId: u.objectId,
      functionDeclaration: REFS_OF,
      arguments: [{ value: assign }, ...objects.map((objectId) => (objectId ? { objectId } : { value: null }))],
      returnByValue: true,
    }) as { result?: { value?: unknown }; exceptionDetails?: unknown };
    const value = !r.exceptionDetails && Array.isArray(r.result?.value) ? (r.result!.value as unknown[]) : null;
    return value ? backendNodeIds.map((_, i) => (typeof value[i] === 'string' ? (value[i] as string) : null)) : none;
  } catch {
    return none;
  } finally {
    void client.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
  }
}

function objectIdOf(handle: ElementHandle): string | undefined {
  const connection = (handle as unknown as { _connection?: { toImpl?: (o: unknown) => unknown } })._connection;
  try {
    return (connection?.toImpl?.(handle) as { _objectId?: string } | undefined)?._objectId;
  } catch {
    return undefined;
  }
}

async function refIn(frame: Frame, handle: ElementHandle, assign: boolean): Promise<string | null> {
  const u = await utilityInjected(frame);
  const objectId = objectIdOf(handle);
  if (!u || !objectId) return null;
  try {
    const described = await u.client.send('DOM.describeNode', { objectId }) as { node?: { backendNodeId?: number } };
    const backendNodeId = described.node?.backendNodeId;
    if (!backendNodeId) return null;
    const [ref] = await refsOfNodes(frame, [backendNodeId], assign);
    return ref;
  } catch {
    return null;
  }
}

/**
 * The ref of each element (an ElementHandle, or a Locator resolving to one element) in the
 * page's latest snapshot, `null` where there is none (detached, unreachable frame, or
 * `assign: false` and no ref). Refs resolve with `page.locator('aria-ref=<ref>')`.
 */
export async function refsForElements(state: PageState, handles: (ElementHandle | Locator)[], opts: RefsForElementsOptions = {}): Promise<(string | null)[]> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  if (opts.snapshot !== false) await state.snapshot(timeoutMs);
  const assign = opts.assign !== false;
  const out: (string | null)[] = [];
  for (const h of handles) {
    let handle: ElementHandle | null = null;
    let owned = false;
    try {
      if ('elementHandle' in h && typeof (h as Locator).elementHandle === 'function' && !('asElement' in h)) {
        handle = await (h as Locator).elementHandle({ timeout: Math.min(timeoutMs, 2000) });
        owned = true;
      } else handle = h as ElementHandle;
      const frame = handle ? await handle.ownerFrame() : null;
      out.push(handle && frame ? await refIn(frame, handle, assign) : null);
    } catch {
      out.push(null);
    } finally {
      if (owned) await handle?.dispose().catch(() => {});
    }
  }
  return out;
}
