import type { Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { Bridge, type World } from '../bridge/bridge.js';
import { normalizeSelector } from '../bridge/targets.js';
import { indexRefs, type AriaElement } from '../snapshot/tree.js';
import { frameOfId } from '../snapshot/direct.js';
import { refsOfNodes } from '../surface/refs.js';
import type { ResolvedTarget } from './resolve.js';

// Selectors as action targets (Playwright syntax: css=, xpath=, text=, role=, `>>` chains,
// :has(), plus the testid: shorthands), and the ref of any element an answer lists.
//
// Refs are Playwright's own (seams §1): the ref map of the latest snapshot in each frame's
// utility world (surface/refs.ts reads it). The elements found here live in Ariadne's isolated
// world (bridge hand-off): each is named by its DOM node id and read through that map. An
// element with no ref yet (new since the last snapshot) gets one from a single fresh
// full-page snapshot (the page layer's only snapshot path), then the refs are read again.

const GROUP = 'ariadne-refs';

/** The ref of each element (by object id in `world`) in the latest snapshot, null where it has none. */
async function readRefs(state: PageState, world: World, objectIds: string[]): Promise<(string | null)[]> {
  const frame = frameOfId(state.page, world.frameId);
  if (!frame) return objectIds.map(() => null);
  const nodes = await Promise.all(objectIds.map((objectId) => world.session.send('DOM.describeNode', { objectId }).then((r) => r.node.backendNodeId, () => null)));
  return refsOfNodes(frame, nodes, false);
}

/** The ref of one element held as a live object of Ariadne's world `world` (null: none). */
export async function refOfObject(state: PageState, world: World, objectId: string): Promise<string | null> {
  const [ref] = await readRefs(state, world, [objectId]);
  return ref;
}

/** Refs of the elements handed off under `slot` (tags ending in their index), across the worlds. */
async function refsOfSlot(state: PageState, worlds: World[], slot: string, n: number): Promise<(string | null)[]> {
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
        const refs = await readRefs(state, w, items.map((x) => x.objectId));
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
      return refsOfSlot(state, worlds, slot, sent);
    }
    const locs = targets.locators ?? [];
    await bridge.handOff(slot, locs.map((locator, i) => ({ locator, tag: `r${i}`, single: true, optional: true })));
    return refsOfSlot(state, worlds, slot, locs.length);
  };
  let refs = await read();
  if (refs.some((r) => !r)) {
    // Something has no ref yet (new since the last snapshot): one fresh snapshot, read again.
    await state.snapshot(5000).catch(() => undefined);
    refs = await read();
  }
  return refs;
}

/**
 * Refs of the elements an in-page analysis listed under `listId` (injected/listed.ts), in
 * its entries' order; after one fresh snapshot when some are missing. Never throws: an
 * answer without refs is still an answer.
 */
export async function refsOfListed(state: PageState, world: World, listId: string): Promise<(string | null)[]> {
  const read = async (): Promise<(string | null)[]> => {
    try {
      const res = await world.session.send('Runtime.callFunctionOn', {
        executionContextId: world.contextId,
        functionDeclaration: 'function(id) { return globalThis.__ariadne.takeListed(id); }',
        arguments: [{ value: listId }],
        returnByValue: false,
        objectGroup: GROUP,
      });
      if (!res.result.objectId) return [];
      const props = await world.session.send('Runtime.getProperties', { objectId: res.result.objectId, ownProperties: true });
      const items = props.result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => ({ i: Number(p.name), objectId: p.value!.objectId! }));
      const out: (string | null)[] = [];
      const refs = items.length ? await readRefs(state, world, items.map((x) => x.objectId)) : [];
      items.forEach((x, k) => {
        out[x.i] = refs[k] ?? null;
      });
      for (let i = 0; i < out.length; i++) if (out[i] === undefined) out[i] = null;
      return out;
    } catch {
      return [];
    } finally {
      await world.session.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
    }
  };
  try {
    let refs = await read();
    if (refs.some((r) => !r)) {
      await state.snapshot(5000).catch(() => undefined);
      refs = await read();
    }
    return refs;
  } finally {
    await world.session.send('Runtime.callFunctionOn', {
      executionContextId: world.contextId,
      functionDeclaration: 'function(id) { globalThis.__ariadne.dropListed(id); }',
      arguments: [{ value: listId }],
    }).catch(() => {});
  }
}

let listSeq = 0;
/** A fresh id for an in-page analysis whose listed elements the host will ask refs for. */
export function newListId(): string {
  return `l${++listSeq}`;
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
