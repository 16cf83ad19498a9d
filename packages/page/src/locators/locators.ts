import type { ElementHandle, Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { Bridge, type World } from '../bridge/bridge.js';
import { resolveInspectTarget } from '../bridge/targets.js';
import { findRef } from '../snapshot/tree.js';
import { frameChain } from '../inspect/frames.js';
import { buildLocator, renderSteps, type LocatorStep } from './steps.js';
import { NAMELESS_ROLES, type Strategy, type Weakness } from './drafts.js';
import { performance } from 'node:perf_hooks';

// Verified locators: for a ref, Playwright code an agent can paste into a spec, best
// first. The bridge drafts candidates from facts around the element (the snapshot's role
// and name, stable containers, exact anchors: a heading's name, an element's whole text),
// never from generated ids; matches every one in the page; checks each unique one against
// a near-duplicate; and scores it by its weaknesses (drafts.ts) — in one round trip. The
// best few are then PROVEN with Playwright before they are returned: exactly one match,
// and it is the ref's element (=== in the page).

export type { Strategy, Weakness, WeaknessKind } from './drafts.js';

export interface LocatorCandidate {
  code: string;
  strategy: Strategy;
  /** 0..100, higher survives more change; every weakness below lowers it. */
  score: number;
  /** Something in it breaks easily: position, structure, a generated id, data-driven or substring text. */
  fragile: boolean;
  weaknesses: Weakness[];
  /** The facts it was built from. */
  why: string[];
  /** Against a copy of its container whose anchor text is extended ("Desk Lamp" -> "Desk Lamp Plus"). */
  nearDuplicate: 'distinct' | 'also-matches' | 'no-text-anchor';
  verified: { matches: number; sameElement: boolean };
}

export interface LocatorsResponse {
  ref: string;
  url: string;
  target: { tag: string; role?: string; name?: string };
  frameSelector?: string;
  locators: LocatorCandidate[];
  baseline: { source: string; code?: string; matches?: number; sameElement?: boolean; error?: string; ms?: number };
  rejected: { code: string; reason: string }[];
  considered: number;
  verification: string;
  /** Our synthesis alone (the normalize() baseline is timed separately in baseline.ms). */
  durationMs: number;
}

interface MatchedCandidate {
  steps: LocatorStep[];
  strategy: Strategy;
  key: string;
  why: string[];
  weaknesses: Weakness[];
  score: number;
  fragile: boolean;
  nearDuplicate: LocatorCandidate['nearDuplicate'];
}

interface CandidatesResult {
  tag: string;
  candidates: MatchedCandidate[];
  rejected: { steps: LocatorStep[]; reason: string }[];
  considered: number;
  nth?: { steps: LocatorStep[]; index: number; of: number };
  ms: number;
}

/** The first answer that is not a miss (worlds the element does not live in miss); null if none. */
function firstHit<T>(calls: Promise<{ r: T | { __miss: true }; w: World }>[]): Promise<{ r: T; w: World } | null> {
  return new Promise((resolve) => {
    let left = calls.length;
    if (!left) return resolve(null);
    const done = () => {
      if (--left === 0) resolve(null);
    };
    for (const c of calls) {
      c.then((x) => (x.r && typeof x.r === 'object' && '__miss' in (x.r as object) ? done() : resolve(x as { r: T; w: World })), done);
    }
  });
}

/**
 * Proof, two concurrent Playwright counts per candidate, both resolved in Playwright's
 * utility world (a page that patched its own DOM APIs cannot fool them, where a
 * main-world evaluateAll would be): the locator matches exactly one element, and
 * locator.and(the ref) matches one too, so that element is the ref's element.
 */
async function verify(loc: Locator, ref: Locator): Promise<{ matches: number; sameElement: boolean } | { error: string }> {
  try {
    const [matches, both] = await Promise.all([loc.count(), loc.and(ref).count()]);
    return { matches, sameElement: matches === 1 && both === 1 };
  } catch (err) {
    return { error: ((err as Error).message ?? String(err)).split('\n')[0].slice(0, 200) };
  }
}

export async function synthesizeLocators(state: PageState, opts: { ref: string; max?: number; baseline?: boolean }): Promise<LocatorsResponse> {
  const t0 = performance.now();
  const max = opts.max ?? 5;
  const bridge = Bridge.for(state);
  state.assertNoDialog();
  if (!/^[a-z0-9]+$/i.test(opts.ref)) await resolveInspectTarget(state, { ref: opts.ref }); // throws the standard 400
  const node = state.lastSnapshot ? findRef(state.lastSnapshot.tree, opts.ref) : null;
  const role = node?.role;
  const name = node?.name;
  const page = state.page;
  const locator = page.locator(`aria-ref=${opts.ref}`);
  const args = { ...(role ? { role } : {}), ...(name !== undefined ? { name } : {}), max };
  // Round trip 1, all at once: does the ref resolve; the element handle for Playwright's
  // proof (the same evaluate hands the element to the bridge); the bridge call, which
  // waits in the page for that hand-off, then drafts, matches, near-duplicate-checks and
  // scores every candidate; and Playwright's proof of role + exact name, the usual winner.
  const slot = bridge.newSlot();
  const known = bridge.knownWorlds();
  const role0: LocatorStep[] | null = role && name && !NAMELESS_ROLES.has(role) ? [{ m: 'getByRole', role, name, exact: true }] : null;
  const roleLoc = role0 ? buildLocator(page, role0) : null;
  const [count, handle, early, spec] = await Promise.all([
    locator.count().catch(() => 0),
    locator
      .evaluateHandle((el, [ev, detail]) => (el.dispatchEvent(new CustomEvent(ev, { detail, composed: true })), el), [bridge.eventName, `${slot}\u0001target`] as const, { timeout: 2000 })
      .then((h) => h.asElement() as ElementHandle | null)
      .catch(() => null),
    firstHit(known.map((w) => bridge.callWaiting<CandidatesResult>(w, 'locatorCandidates', { ...args, slot }, 1500).then((r) => ({ r, w })))),
    // Proof without the handle: one match, and that match is also the ref's element (and()).
    roleLoc ? verify(roleLoc, locator) : null,
  ]);
  if (count !== 1 || !handle) {
    await handle?.dispose().catch(() => {});
    await resolveInspectTarget(state, { ref: opts.ref }); // throws ref_not_found / ref_stale
    throw new AppError('ref_not_found', `Ref ${opts.ref} does not resolve on the current page.`, { ref: opts.ref });
  }
  // First call on this page (worlds not set up yet), or a frame set up since: the slower, retrying path.
  const hit: { r: CandidatesResult; w: World } = early ?? (await bridge.runOnCaught<CandidatesResult>([{ locator, tag: 'target', single: true }], 'locatorCandidates', args).then(({ result, world }) => ({ r: result, w: world })));
  const found = hit.r;
  const world = hit.w;
  const proven = new Map<string, { matches: number; sameElement: boolean } | { error: string }>();
  if (role0 && spec && !hit.w.parentId) proven.set(renderSteps(role0), spec);
  try {
    const chain = world.parentId ? await frameChain(bridge, world) : [];
    const prefix: LocatorStep[] = chain.map((selector) => ({ m: 'frameLocator', selector }));
    const rejected: { code: string; reason: string }[] = found.rejected.map((r) => ({ code: renderSteps([...prefix, ...r.steps]), reason: r.reason }));
    const verified: LocatorCandidate[] = [];
    // Playwright proves the page's ranking, best first, only as many as are returned.
    let i = 0;
    while (verified.length < max && i < found.candidates.length) {
      const batch = found.candidates.slice(i, i + (max - verified.length));
      i += batch.length;
      const results = await Promise.all(batch.map((c) => proven.get(renderSteps([...prefix, ...c.steps])) ?? verify(buildLocator(page, [...prefix, ...c.steps]), locator)));
      batch.forEach((c, k) => {
        const v = results[k];
        const code = renderSteps([...prefix, ...c.steps]);
        if ('error' in v) return void rejected.push({ code, reason: v.error });
        if (v.matches !== 1 || !v.sameElement) {
          return void rejected.push({ code, reason: `Playwright: ${v.matches === 0 ? 'matches nothing' : v.matches > 1 ? `matches ${v.matches} elements` : 'matches a different element'}` });
        }
        verified.push({ code, strategy: c.strategy, score: c.score, fragile: c.fragile, weaknesses: c.weaknesses, why: c.why, nearDuplicate: c.nearDuplicate, verified: v });
      });
    }
    // nth() only when nothing else is unique: positional, and scored so.
    if (!verified.length && found.nth) {
      const steps = [...prefix, ...found.nth.steps];
      const v = await verify(buildLocator(page, steps), locator);
      if (!('error' in v) && v.matches === 1 && v.sameElement) {
        const weaknesses: Weakness[] = [{ kind: 'positional', detail: `${found.nth.of} elements are ${role}${name ? ` "${name}"` : ''}; this is number ${found.nth.index} in document order: breaks when such elements are added, removed or reordered` }];
        verified.push({
          code: renderSteps(steps), strategy: 'nth', score: 20, fragile: true, weaknesses, nearDuplicate: 'no-text-anchor', verified: v,
          why: [`${found.nth.of} elements are ${role}${name ? ` "${name}"` : ''}; this is number ${found.nth.index} in document order`],
        });
      }
    }
    const durationMs = Math.round(performance.now() - t0);
    const baseline = opts.baseline === false ? { source: 'Playwright locator.normalize()', error: 'skipped (baseline=false)' } : await normalizeBaseline(locator);
    return {
      ref: opts.ref,
      url: page.url(),
      target: { tag: found.tag, ...(role ? { role } : {}), ...(name ? { name } : {}) },
      ...(chain.length ? { frameSelector: chain.join(' >> ') } : {}),
      locators: verified.slice(0, max),
      baseline,
      rejected: rejected.slice(0, 10),
      considered: found.considered,
      verification:
        'Every candidate was matched in the page (count and identity) and checked against a near-duplicate (a copy of its container with the anchor text extended); each returned locator was then resolved with Playwright: exactly 1 match, and that match is the ref\'s element (=== in the page).',
      durationMs,
    };
  } finally {
    await handle.dispose().catch(() => {});
  }
}

/** Playwright's own locator.normalize(), verified the same way, for comparison. */
async function normalizeBaseline(ref: Locator): Promise<LocatorsResponse['baseline']> {
  const source = 'Playwright locator.normalize()';
  try {
    const t0 = performance.now();
    const n = await ref.normalize();
    const ms = Math.round(performance.now() - t0);
    const code = `page.${n.toString()}`;
    const v = await verify(n, ref);
    return 'error' in v ? { source, code, error: v.error, ms } : { source, code, ...v, ms };
  } catch (err) {
    return { source, error: ((err as Error).message ?? String(err)).split('\n')[0].slice(0, 200) };
  }
}
