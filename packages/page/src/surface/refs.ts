import type { ElementHandle, Frame, Locator } from 'playwright-core';
import type { PageState } from '../page-state.js';
import { SURFACE_MODULE, utilityInjected } from '../snapshot/direct.js';

// "The ref of this element" for anything that found an element another way (a selector target,
// inspect/dom/explore answers): read from the ref map Playwright's injected script keeps for
// `aria-ref=` in the element's frame (seams §1), after a fresh full-page snapshot through the
// page layer's normal path. An element the snapshot gave no ref (a word in prose, an element
// with role none) is registered in that same map, so the ref resolves like any other.

interface CdpSession { send(method: string, params?: Record<string, unknown>): Promise<unknown> }

export interface RefsForElementsOptions {
  /** Take a fresh full-page snapshot first (default true): refs are read from the latest one. */
  snapshot?: boolean;
  /** Register a ref for an element that has none (default true); false answers null for it. */
  assign?: boolean;
  timeoutMs?: number;
}

const REF_OF = `function (el, assign) {
  const m = ${SURFACE_MODULE};
  return assign ? m.registerRef(this, el) : m.refOf(this, el);
}`;

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
  if (!u || !objectId || u.contextId === undefined) return null;
  const client: CdpSession = u.client;
  try {
    // The handle lives in the page's main world; the ref map in the utility world: adopt it there.
    const described = await client.send('DOM.describeNode', { objectId }) as { node?: { backendNodeId?: number } };
    const backendNodeId = described.node?.backendNodeId;
    if (!backendNodeId) return null;
    const resolved = await client.send('DOM.resolveNode', { backendNodeId, executionContextId: u.contextId }) as { object?: { objectId?: string } };
    const el = resolved.object?.objectId;
    if (!el) return null;
    try {
      const r = await client.send('Runtime.callFunctionOn', {
        objectId: u.objectId,
        functionDeclaration: REF_OF,
        arguments: [{ objectId: el }, { value: assign }],
        returnByValue: true,
      }) as { result?: { value?: unknown }; exceptionDetails?: unknown };
      return !r.exceptionDetails && typeof r.result?.value === 'string' ? r.result.value : null;
    } finally {
      void client.send('Runtime.releaseObject', { objectId: el }).catch(() => {});
    }
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
