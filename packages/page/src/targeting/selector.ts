import type { CDPSession, Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { Bridge, type World } from '../bridge/bridge.js';
import { normalizeSelector } from '../bridge/targets.js';
import { indexRefs, type AriaElement } from '../snapshot/tree.js';
import type { ResolvedTarget } from './resolve.js';

// Selectors as action targets (Playwright syntax: css=, xpath=, text=, role=, `>>` chains,
// :has(), plus the testid: shorthands), and the ref of any element an answer lists.
//
// Refs are Playwright's own (seams §1): its AI snapshot stores each element's ref on the
// element (`_ariaRef`, an expando of Playwright's utility world, per frame document), and
// its aria-ref engine resolves through the latest snapshot's map. This file reads that
// expando: the elements are handed to Ariadne's isolated world (bridge hand-off), turned
// into DOM node ids, resolved into Playwright's utility world and read there in one call.
// A ref read that way is kept only when `aria-ref=<ref>` resolves now (the element was in
// the latest snapshot); otherwise one fresh full-page snapshot is taken (the page layer's
// only snapshot path) and the refs read again.

const GROUP = 'ariadne-refs';
const UTILITY_PREFIX = '__playwright_utility_world';

/** Playwright's utility-world context per frame, by CDP session (found once per document). */
const utilityContexts = new WeakMap<CDPSession, Map<string, number>>();

async function utilityContext(world: World, refresh: boolean): Promise<number | null> {
  let known = utilityContexts.get(world.session);
  if (!known || refresh || !known.has(world.frameId)) {
    known = new Map();
    const found = known;
    const onCreated = (e: { context: { id: number; name: string; auxData?: { frameId?: string } } }) => {
      if (e.context.name.startsWith(UTILITY_PREFIX) && e.context.auxData?.frameId) found.set(e.context.auxData.frameId, e.context.id);
    };
    // Enabling the Runtime domain reports every live context; it is disabled again at once.
    world.session.on('Runtime.executionContextCreated', onCreated);
    try {
      await world.session.send('Runtime.enable');
      await world.session.send('Runtime.disable');
    } finally {
      world.session.off('Runtime.executionContextCreated', onCreated);
    }
    utilityContexts.set(world.session, known);
  }
  return known.get(world.frameId) ?? null;
}

/** The `_ariaRef` of each element (by object id in `world`), null where it has none. */
async function readRefs(world: World, objectIds: string[]): Promise<(string | null)[]> {
  const s = world.session;
  for (let attempt = 0; attempt < 2; attempt++) {
    const util = await utilityContext(world, attempt > 0);
    if (util === null) return objectIds.map(() => null);
    try {
      const nodes = await Promise.all(objectIds.map((objectId) => s.send('DOM.describeNode', { objectId }).then((r) => r.node.backendNodeId)));
      const inUtil = await Promise.all(nodes.map((backendNodeId) => s.send('DOM.resolveNode', { backendNodeId, executionContextId: util, objectGroup: GROUP }).then((r) => r.object.objectId!)));
      const res = await s.send('Runtime.callFunctionOn', {
        executionContextId: util,
        functionDeclaration: 'function(...els) { return els.map((e) => (e && e._ariaRef ? e._ariaRef.ref : null)); }',
        arguments: inUtil.map((objectId) => ({ objectId })),
        returnByValue: true,
      });
      return (res.result.value as (string | null)[]) ?? objectIds.map(() => null);
    } catch {
      // The utility context went with a navigation: find it again once.
    } finally {
      await s.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
    }
  }
  return objectIds.map(() => null);
}

/** The ref of one element held as a live object of Ariadne's world `world` (null: none). */
export async function refOfObject(world: World, objectId: string): Promise<string | null> {
  const [ref] = await readRefs(world, [objectId]);
  return ref ?? null;
}

/** Refs of the elements handed off under `slot` (tags ending in their index), across the worlds. */
async function refsOfSlot(worlds: World[], slot: string, n: number): Promise<(string | null)[]> {
  const out: (string | null)[] = Array.from({ length: n }, () => null);
  await Promise.all(
    worlds.map(async (w) => {
      try {
        const res = await w.session.send('Runtime.callFunctionOn', {
          executionContextId: w.contextId,
          functionDeclaration: 'function(slot) { return globalThis.__ariadne.caughtElements(slot); }',
          arguments: [{ value: slot }],
          returnByValue: false,
          objectGroup: GROUP,
        });
        if (!res.result.objectId) return;
        const props = await w.session.send('Runtime.getProperties', { objectId: res.result.objectId, ownProperties: true });
        const items = props.result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId && p.value.subtype === 'node').map((p) => ({ i: Number(p.name), objectId: p.value!.objectId! }));
        if (!items.length) return;
        const refs = await readRefs(w, items.map((x) => x.objectId));
        items.forEach((x, k) => {
          if (x.i < n && refs[k]) out[x.i] = refs[k];
        });
      } catch {
        /* a world that went away answers no refs */
      } finally {
        await w.session.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
      }
    }),
  );
  return out;
}

/** Does each ref resolve now (it was in the latest snapshot of its frame)? */
async function refsLive(state: PageState, refs: (string | null)[]): Promise<boolean[]> {
  const tree = state.lastSnapshot && state.lastSnapshot.epoch === state.navEpoch ? indexRefs(state.lastSnapshot.tree) : new Map<string, AriaElement>();
  return Promise.all(refs.map(async (r) => (r ? tree.has(r) || (await state.page.locator(`aria-ref=${r}`).count().catch(() => 0)) === 1 : false)));
}

export interface RefLookup {
  /** Each element's ref, null when Playwright gave it none (not visible, or no aria node). */
  refs: (string | null)[];
}

/**
 * The ref of each element a locator list designates (one element each: the first match),
 * or of the first `limit` matches of one locator. Read after a fresh full-page snapshot when
 * a ref is missing or no longer resolves; never a second ariaSnapshot call on a subtree.
 */
export async function refsForLocators(state: PageState, targets: { locators?: Locator[]; all?: Locator; limit?: number }): Promise<(string | null)[]> {
  const bridge = Bridge.for(state);
  const read = async (): Promise<(string | null)[]> => {
    const worlds = await bridge.allWorlds();
    const slot = bridge.newSlot();
    if (targets.all) {
      const [sent] = await bridge.handOff(slot, [{ locator: targets.all, tag: 'r', limit: targets.limit ?? 100 }]);
      return refsOfSlot(worlds, slot, sent);
    }
    const locs = targets.locators ?? [];
    await bridge.handOff(slot, locs.map((locator, i) => ({ locator, tag: `r${i}`, single: true, optional: true })));
    return refsOfSlot(worlds, slot, locs.length);
  };
  let refs = await read();
  let live = await refsLive(state, refs);
  if (live.some((ok) => !ok)) {
    // Something has no ref yet (new since the last snapshot): one fresh snapshot, read again.
    await state.snapshot(5000).catch(() => undefined);
    refs = await read();
    live = await refsLive(state, refs);
  }
  return refs.map((r, i) => (live[i] ? r : null));
}

/** Role and name of refs, from the latest snapshot. */
export function describeRefs(state: PageState, refs: (string | null)[]): ({ role: string; name?: string } | null)[] {
  const index = state.lastSnapshot ? indexRefs(state.lastSnapshot.tree) : new Map<string, AriaElement>();
  return refs.map((r) => {
    const n = r ? index.get(r) : undefined;
    if (!n) return null;
    const name = n.name || (typeof n.inferredName === 'string' ? n.inferredName : '');
    return { role: n.role, ...(name ? { name } : {}) };
  });
}

const MAX_CANDIDATES = 10;

/** `page.locator("…")` as code, for the answer's verified locator. */
function locatorCode(selector: string): string {
  return `page.locator(${JSON.stringify(selector)})`;
}

/**
 * A selector target: it must match exactly one element. None is target_not_found; more
 * than one is ambiguous_target listing the candidates (ref, role, name, text) so the
 * caller can pick by ref or narrow the selector. The answer carries the element's ref and
 * the selector as a locator proven to match exactly it.
 */
export async function resolveSelector(state: PageState, selector: string): Promise<ResolvedTarget> {
  const resolved = normalizeSelector(selector);
  const all = state.page.locator(resolved);
  let count: number;
  try {
    count = await all.count();
  } catch (err) {
    const first = ((err as Error).message ?? String(err)).replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0];
    if (/closed|crash/i.test(first)) throw err;
    throw new AppError('invalid_selector', `Invalid selector "${selector}": ${first.replace(/^[\w.]+: /, '')}`, { selector, field: 'selector' });
  }
  if (count === 0) {
    throw new AppError('target_not_found', `No element matches selector "${selector}".`, {
      selector,
      ...(resolved !== selector ? { resolvedSelector: resolved } : {}),
      url: state.page.url(),
      hint: 'Check the selector with inspect/query, or take a snapshot and act on a ref.',
    });
  }
  if (count > 1) {
    const shown = Math.min(count, MAX_CANDIDATES);
    const [refs, texts] = await Promise.all([
      refsForLocators(state, { all, limit: shown }).catch(() => Array.from({ length: shown }, () => null)),
      all.evaluateAll((els, max) => els.slice(0, max).map((e) => ((e as HTMLElement).innerText ?? e.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 80)), shown).catch(() => [] as string[]),
    ]);
    const facts = describeRefs(state, refs);
    const candidates = refs.map((ref, i) => ({ ...(ref ? { ref } : {}), ...(facts[i] ?? {}), text: texts[i] ?? '' }));
    throw new AppError('ambiguous_target', `Selector "${selector}" matches ${count} elements; an action needs exactly one.`, {
      selector,
      matches: count,
      candidates,
      hint: 'Act on one of the candidates by ref, or narrow the selector (a container, :has(), >> nth=0).',
    });
  }
  const [ref] = await refsForLocators(state, { locators: [all] }).catch(() => [null]);
  const [facts] = describeRefs(state, [ref]);
  return {
    locator: all,
    ...(ref ? { ref } : {}),
    resolvedBy: 'selector',
    code: locatorCode(resolved),
    ...(facts ?? {}),
  };
}
