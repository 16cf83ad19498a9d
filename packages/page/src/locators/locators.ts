import type { ElementHandle, Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { Bridge, BridgeContextLost, type World } from '../bridge/bridge.js';
import { resolveInspectTarget } from '../bridge/targets.js';
import { findRef, isElement, type AriaNode } from '../snapshot/tree.js';
import { frameChain } from '../inspect/frames.js';
import { buildLocator, renderSteps, type LocatorStep } from './steps.js';
import { NAMELESS_ROLES, dataTextReason, roleDraft, scoreOf, weaknessesOf, type Strategy, type Weakness } from './drafts.js';
import { performance } from 'node:perf_hooks';

// Verified locators: for a ref, Playwright code an agent can paste into a spec, best
// first. The bridge drafts candidates from facts around the element (the snapshot's role
// and name, stable containers, exact anchors: a heading's name, an element's whole text),
// never from generated ids; matches every one in the page; checks each unique one against
// a near-duplicate; and scores it by its weaknesses (drafts.ts) — in one round trip. The
// best few are then PROVEN with Playwright before they are returned: exactly one match,
// and it is the ref's element (=== in the page).
//
// Where the time goes (issue 11 §3, bench/locators.mjs): Playwright calls on the
// renderer's one thread. So the ref reaches the bridge through Playwright's own target
// mark (one utility-world textContent(), see viaMark) rather than a main-world
// evaluateHandle; role + name is proven up front only when the snapshot says it is
// unique; and when it is proven and has no weakness (score 100, nothing can rank above
// it) one locator costs that proof and the element's tag, no drafting at all.

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

/** What one round trip learns about a ref before anything is proven or done to it. */
interface Gathered {
  role?: string;
  name?: string;
  locator: Locator;
  /** Role + exact name, and Playwright's proof of it when it was sent (null: not sent). */
  role0: LocatorStep[] | null;
  roleProof: { matches: number; sameElement: boolean } | { error: string } | null;
  /** Role + exact name was proven unique and has no weakness: nothing can rank above it. */
  roleWon: boolean;
  /** The element's tag when only that was asked of the page (roleWon, one locator wanted). */
  tag?: string;
  /** The bridge's drafted, matched, near-duplicate-checked and scored candidates (null: not asked for). */
  hit: { r: CandidatesResult; w: World } | null;
  /** The hit came through Playwright's target mark (see viaMark), not the dispatchEvent hand-off. */
  marked: boolean;
}

/** Per snapshot: how many elements carry each role + name, and which refs live inside an iframe. */
const snapFacts = new WeakMap<object, { counts: Map<string, number>; framed: Set<string> }>();

function snapshotFacts(state: PageState): { counts: Map<string, number>; framed: Set<string> } | null {
  const tree = state.lastSnapshot?.tree;
  if (!tree) return null;
  let f = snapFacts.get(tree);
  if (!f) {
    const counts = new Map<string, number>();
    const framed = new Set<string>();
    const rec = (nodes: AriaNode[], inFrame: boolean) => {
      for (const n of nodes) {
        if (!isElement(n)) continue;
        if (n.name) counts.set(`${n.role}\u0000${n.name}`, (counts.get(`${n.role}\u0000${n.name}`) ?? 0) + 1);
        if (inFrame && n.ref) framed.add(n.ref);
        if (n.children) rec(n.children, inFrame || n.role === 'iframe');
      }
    };
    rec(tree, false);
    f = { counts, framed };
    snapFacts.set(tree, f);
  }
  return f;
}

/**
 * The cheap hand-off (the bridge side is in injected/locators.ts): read the ref's
 * textContent with Playwright — one call in its utility world, which marks the element it
 * resolved with a DOM event every world sees — then run `op` on the marked element in the
 * worlds, sending the text so the page can check it holds the right one. About a tenth of
 * the dispatchEvent hand-off, whose locator.evaluateHandle() adopts the element into the
 * page's main world over several more round trips. null when it did not work (the
 * caller falls back to that hand-off).
 */
async function viaMark<T>(bridge: Bridge, locator: Locator, op: string, args: Record<string, unknown>): Promise<{ r: T; w: World } | null> {
  let worlds = bridge.knownWorlds();
  // Worlds of a document the page has since left answer "context lost": set up the current ones, once.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!worlds.length) worlds = await bridge.allWorlds().catch(() => []);
    if (!worlds.length) return null;
    const text = await locator.textContent({ timeout: 2000 }).catch(() => null);
    if (text === null) return null;
    const mark = { len: text.length, head: text.slice(0, 64), tail: text.slice(-64) };
    let lost = 0;
    const hit = await firstHit(
      worlds.map((w) =>
        bridge
          .call<T>(w, op, { ...args, mark })
          .catch((err) => (err instanceof BridgeContextLost && lost++, { __miss: true as const }))
          .then((r) => ({ r, w })),
      ),
    );
    if (hit || !lost) return hit;
    worlds = [];
  }
  return null;
}

/** The bridge's candidates for the element: through the mark, else the dispatchEvent hand-off. */
async function candidatesOf(bridge: Bridge, locator: Locator, args: Record<string, unknown>): Promise<{ hit: { r: CandidatesResult; w: World }; marked: boolean }> {
  const m = await viaMark<CandidatesResult>(bridge, locator, 'locatorCandidatesMarked', args);
  return m ? { hit: m, marked: true } : { hit: await candidatesFor(bridge, locator, args), marked: false };
}

/**
 * Round trip 1, all at once: does the ref resolve (count); Playwright's proof of role +
 * exact name — sent only when the snapshot says no other element has that role and name
 * (else it is a page-wide query for nothing); and the bridge's candidates, drafted,
 * matched, near-duplicate-checked and scored in the page. When role + name is proven
 * unique and has no weakness it scores 100 and nothing can rank above it: for one
 * locator (or a flow step) the page is then asked only for the element's tag (or nothing),
 * and for its candidates only when the proof fails.
 */
async function gather(state: PageState, ref: string, max: number, mode: 'full' | 'step', roleNameRepeated = false): Promise<Gathered> {
  const bridge = Bridge.for(state);
  state.assertNoDialog();
  if (!/^[a-z0-9]+$/i.test(ref)) await resolveInspectTarget(state, { ref }); // throws the standard 400
  const node = state.lastSnapshot ? findRef(state.lastSnapshot.tree, ref) : null;
  const role = node?.role;
  const name = node?.name;
  const page = state.page;
  const locator = page.locator(`aria-ref=${ref}`);
  const args = { ...(role ? { role } : {}), ...(name !== undefined ? { name } : {}), max };
  const role0: LocatorStep[] | null = role && name && !NAMELESS_ROLES.has(role) ? [{ m: 'getByRole', role, name, exact: true }] : null;
  const sf = snapshotFacts(state);
  const proveRole = !!role0 && (!sf || (sf.counts.get(`${role}\u0000${name}`) === 1 && !sf.framed.has(ref)));
  const strongRole = proveRole && !dataTextReason(name!);
  const key = bridge.newSlot();
  const tagOnly = strongRole && mode === 'full' && max === 1;
  const countP = locator.count().catch(() => 0);
  const roleP = proveRole ? verify(buildLocator(page, role0!), locator) : Promise.resolve(null);
  // A step whose role + name is worth proving waits for that proof before asking the page anything
  // (unless its caller saw that role + name repeated: then the page is asked at once as well).
  const pageP: Promise<{ r: unknown; w: World } | null> | null =
    mode === 'step' && proveRole && !roleNameRepeated ? null : viaMark(bridge, locator, tagOnly ? 'locatorTargetMarked' : 'locatorCandidatesMarked', { ...args, key });
  const count = await countP;
  if (count !== 1) {
    pageP?.catch(() => {});
    roleP.catch(() => {});
    await resolveInspectTarget(state, { ref }); // throws ref_not_found / ref_stale
    throw new AppError('ref_not_found', `Ref ${ref} does not resolve on the current page.`, { ref });
  }
  const [roleProof, first] = await Promise.all([roleP, pageP]);
  const roleOk = !!roleProof && !('error' in roleProof) && roleProof.matches === 1 && roleProof.sameElement;
  const out: Gathered = { ...(role ? { role } : {}), ...(name !== undefined ? { name } : {}), locator, role0, roleProof, roleWon: roleOk && strongRole, hit: null, marked: false };
  // A step takes role + exact name whenever Playwright proves it unique (as it always has).
  if (roleOk && mode === 'step') {
    pageP?.catch(() => {});
    return out;
  }
  if (tagOnly) {
    const t = first as { r: { tag: string }; w: World } | null;
    if (out.roleWon && t) return { ...out, tag: t.r.tag };
    // The proof failed (or the mark did not work): the page's candidates, for the held element if it has it.
    const again = t ? await bridge.call<CandidatesResult>(t.w, 'locatorCandidatesMarked', { ...args, key }).catch(() => ({ __miss: true as const })) : null;
    if (again && !('__miss' in again)) return { ...out, hit: { r: again, w: t!.w }, marked: true };
    return { ...out, hit: await candidatesFor(bridge, locator, args) };
  }
  if (first) return { ...out, hit: first as { r: CandidatesResult; w: World }, marked: true };
  const c = await candidatesOf(bridge, locator, args);
  return { ...out, ...c };
}

/** The bridge's candidates for an element: hand-off and call at once when the worlds exist, else the retrying path. */
async function candidatesFor(bridge: Bridge, locator: Locator, args: Record<string, unknown>): Promise<{ r: CandidatesResult; w: World }> {
  const known = bridge.knownWorlds();
  if (known.length) {
    const slot = bridge.newSlot();
    const [handle, early] = await Promise.all([
      locator
        .evaluateHandle((el, [ev, detail]) => (el.dispatchEvent(new CustomEvent(ev, { detail, composed: true })), el), [bridge.eventName, `${slot}\u0001target`] as const, { timeout: 2000 })
        .catch(() => null),
      firstHit(known.map((w) => bridge.callWaiting<CandidatesResult>(w, 'locatorCandidates', { ...args, slot }, 1500).then((r) => ({ r, w })))),
    ]);
    void handle?.dispose().catch(() => {});
    if (early) return early;
  }
  const { result, world } = await bridge.runOnCaught<CandidatesResult>([{ locator, tag: 'target', single: true }], 'locatorCandidates', args);
  return { r: result, w: world };
}

function rejection(v: { matches: number; sameElement: boolean }): string {
  return `Playwright: ${v.matches === 0 ? 'matches nothing' : v.matches > 1 ? `matches ${v.matches} elements` : 'matches a different element'}`;
}

function nthCandidate(found: CandidatesResult, steps: LocatorStep[], role: string | undefined, name: string | undefined, v: { matches: number; sameElement: boolean }): LocatorCandidate {
  const n = found.nth!;
  const weaknesses: Weakness[] = [{ kind: 'positional', detail: `${n.of} elements are ${role}${name ? ` "${name}"` : ''}; this is number ${n.index} in document order: breaks when such elements are added, removed or reordered` }];
  return {
    code: renderSteps(steps), strategy: 'nth', score: 20, fragile: true, weaknesses, nearDuplicate: 'no-text-anchor', verified: v,
    why: [`${n.of} elements are ${role}${name ? ` "${name}"` : ''}; this is number ${n.index} in document order`],
  };
}

export async function synthesizeLocators(state: PageState, opts: { ref: string; max?: number; baseline?: boolean }): Promise<LocatorsResponse> {
  const t0 = performance.now();
  const max = opts.max ?? 5;
  const page = state.page;
  let g = await gather(state, opts.ref, max, 'full');
  const { role, name, locator } = g;
  const bridge = Bridge.for(state);
  let chain: string[] = [];
  let rejected: { code: string; reason: string }[] = [];
  let verified: LocatorCandidate[] = [];
  let tag = g.tag ?? '';
  let considered = 1;
  if (g.roleWon && g.tag !== undefined) {
    // Role + exact name, proven unique, no weakness: score 100, nothing ranks above it.
    const d = roleDraft(role!, name!);
    const weaknesses = weaknessesOf(d);
    const { score, fragile } = scoreOf(d, weaknesses);
    const v = g.roleProof as { matches: number; sameElement: boolean };
    verified.push({ code: renderSteps(d.steps), strategy: d.strategy, score, fragile, weaknesses, why: d.why, nearDuplicate: 'distinct', verified: v });
  } else {
    let proved = await proveCandidates(state, g, max);
    // Through the mark, the page's candidates are for the element it caught; if Playwright
    // refuses every one of them, the catch is suspect: once more through the dispatchEvent hand-off.
    if (!proved.verified.length && g.marked && g.hit!.r.candidates.length) {
      g = { ...g, hit: await candidatesFor(bridge, locator, { ...(role ? { role } : {}), ...(name !== undefined ? { name } : {}), max }), marked: false };
      proved = await proveCandidates(state, g, max);
    }
    ({ chain, rejected, verified } = proved);
    tag = g.hit!.r.tag;
    considered = g.hit!.r.considered;
  }
  const durationMs = Math.round(performance.now() - t0);
  const baseline = opts.baseline === false ? { source: 'Playwright locator.normalize()', error: 'skipped (baseline=false)' } : await normalizeBaseline(locator);
  return {
    ref: opts.ref,
    url: page.url(),
    target: { tag, ...(role ? { role } : {}), ...(name ? { name } : {}) },
    ...(chain.length ? { frameSelector: chain.join(' >> ') } : {}),
    locators: verified.slice(0, max),
    baseline,
    rejected: rejected.slice(0, 10),
    considered,
    verification:
      'Every candidate was matched in the page (count and identity) and checked against a near-duplicate (a copy of its container with the anchor text extended); each returned locator was then resolved with Playwright: exactly 1 match, and that match is the ref\'s element (=== in the page).',
    durationMs,
  };
}

/** Playwright proves the page's ranking, best first, only as many as are returned; nth() when nothing else is unique. */
async function proveCandidates(state: PageState, g: Gathered, max: number): Promise<{ chain: string[]; rejected: { code: string; reason: string }[]; verified: LocatorCandidate[] }> {
  const page = state.page;
  const { role, name, locator, role0 } = g;
  const { r: found, w: world } = g.hit!;
  const proven = new Map<string, { matches: number; sameElement: boolean } | { error: string }>();
  if (role0 && g.roleProof && !world.parentId) proven.set(renderSteps(role0), g.roleProof);
  const chain = world.parentId ? await frameChain(Bridge.for(state), world) : [];
  const prefix: LocatorStep[] = chain.map((selector) => ({ m: 'frameLocator', selector }));
  const rejected: { code: string; reason: string }[] = found.rejected.map((r) => ({ code: renderSteps([...prefix, ...r.steps]), reason: r.reason }));
  const verified: LocatorCandidate[] = [];
  let i = 0;
  while (verified.length < max && i < found.candidates.length) {
    const batch = found.candidates.slice(i, i + (max - verified.length));
    i += batch.length;
    const results = await Promise.all(batch.map((c) => proven.get(renderSteps([...prefix, ...c.steps])) ?? verify(buildLocator(page, [...prefix, ...c.steps]), locator)));
    batch.forEach((c, k) => {
      const v = results[k];
      const code = renderSteps([...prefix, ...c.steps]);
      if ('error' in v) return void rejected.push({ code, reason: v.error });
      if (v.matches !== 1 || !v.sameElement) return void rejected.push({ code, reason: rejection(v) });
      verified.push({ code, strategy: c.strategy, score: c.score, fragile: c.fragile, weaknesses: c.weaknesses, why: c.why, nearDuplicate: c.nearDuplicate, verified: v });
    });
  }
  // nth() only when nothing else is unique: positional, and scored so.
  if (!verified.length && found.nth) {
    const steps = [...prefix, ...found.nth.steps];
    const v = await verify(buildLocator(page, steps), locator);
    if (!('error' in v) && v.matches === 1 && v.sameElement) verified.push(nthCandidate(found, steps, role, name, v));
  }
  return { chain, rejected, verified };
}

/** The locator a flow step records for the element it acts on. */
export interface StepLocator {
  code: string;
  strategy: Strategy;
  source: 'role-name' | 'synthesized';
}

/** How many of the page's best candidates Playwright proves for a step (the first proven wins). */
const STEP_PROOFS = 2;

/**
 * A step's locator, off the step's critical path. Before the action, one round trip
 * (gather): the ref resolves (else ref_not_found, at once), role + exact name is proven
 * with Playwright when the snapshot says no other element has them, and — only when that
 * is not unique — the bridge drafts, matches in the page and ranks the candidates. The Playwright proof of the best candidates is SENT
 * before the action and awaited after it (`settle()`): the proofs' queries reach the
 * renderer ahead of the action's own calls (Playwright sends them in order, and an action
 * waits for actionability over several more round trips before any input), so they run
 * against the page as it was before the action, even when the action removes the element
 * (a navigation, a re-render). Nothing unproven is ever returned.
 */
export async function prepareStepLocator(state: PageState, ref: string, opts: { roleNameRepeated?: boolean } = {}): Promise<{ ready: StepLocator | null; settle: () => Promise<StepLocator | null> }> {
  // roleNameRepeated: the caller's snapshot shows other elements with this role and name (cards'
  // "Add to cart"), so role + name alone will not be unique: the bridge is asked in the first round trip.
  const g = await gather(state, ref, STEP_PROOFS + 1, 'step', opts.roleNameRepeated === true);
  const roleWon = g.roleProof && !('error' in g.roleProof) && g.roleProof.matches === 1 && g.roleProof.sameElement;
  if (roleWon && g.role0) {
    const ready: StepLocator = { code: renderSteps(g.role0), strategy: 'role', source: 'role-name' };
    return { ready, settle: async () => ready };
  }
  const none = { ready: null, settle: async () => null };
  if (!g.hit) return none;
  const { r: found, w: world } = g.hit;
  // A target inside a frame: the frameLocator chain costs round trips, but only there.
  const chain = world.parentId ? await frameChain(Bridge.for(state), world) : [];
  const prefix: LocatorStep[] = chain.map((selector) => ({ m: 'frameLocator', selector }));
  const picks: { steps: LocatorStep[]; strategy: Strategy }[] = found.candidates
    .filter((c) => !(world.parentId === undefined && g.role0 && g.roleProof && renderSteps(c.steps) === renderSteps(g.role0)))
    .slice(0, STEP_PROOFS)
    .map((c) => ({ steps: [...prefix, ...c.steps], strategy: c.strategy }));
  if (!picks.length && found.nth) picks.push({ steps: [...prefix, ...found.nth.steps], strategy: 'nth' });
  if (!picks.length) return none;
  // Sent now, before the caller acts; read after.
  const proofs = picks.map((p) => verify(buildLocator(state.page, p.steps), g.locator));
  return {
    ready: null,
    settle: async () => {
      const results = await Promise.all(proofs);
      const k = results.findIndex((v) => !('error' in v) && v.matches === 1 && v.sameElement);
      return k < 0 ? null : { code: renderSteps(picks[k].steps), strategy: picks[k].strategy, source: 'synthesized' };
    },
  };
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
