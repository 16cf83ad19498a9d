import type { ElementHandle, Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { Bridge } from '../bridge/bridge.js';
import { resolveInspectTarget } from '../bridge/targets.js';
import { findRef } from '../snapshot/tree.js';
import { frameChain } from '../inspect/frames.js';
import { buildLocator, renderSteps, type LocatorStep } from './steps.js';

// Verified locators: for a ref, Playwright code an agent can paste into a spec, best
// first. Candidates are composed from facts (the snapshot's role and name, the
// containers and unique texts the bridge finds) and each one is PROVEN on the live
// page before it is returned: it resolves to exactly one element, and that element is
// the ref's element (=== in the page). Preference order: role + name unique on the
// page; stable container + content filter + role + name; the element's own label /
// placeholder / test id; structural CSS; nth() last, flagged fragile.

export type Strategy = 'role' | 'container' | 'own' | 'structural' | 'nth';

export interface LocatorCandidate {
  code: string;
  strategy: Strategy;
  fragile?: boolean;
  /** The facts it was built from. */
  why: string[];
  verified: { matches: number; sameElement: boolean };
}

export interface LocatorsResponse {
  ref: string;
  url: string;
  target: { tag: string; role?: string; name?: string };
  frameSelector?: string;
  locators: LocatorCandidate[];
  baseline: { source: string; code?: string; matches?: number; sameElement?: boolean; error?: string };
  rejected: { code: string; reason: string }[];
  considered: number;
  verification: string;
  durationMs: number;
}

interface ContainerFacts {
  level: number;
  kind: 'testid' | 'test-attr' | 'id' | 'role' | 'tag' | 'class' | 'structural';
  step: LocatorStep;
  tag: string;
  matchCount: number;
  filterTexts: string[];
  nestedFilterTexts?: string[];
  similarInside: number;
}

interface Facts {
  tag: string;
  markupRole?: string;
  own: { testId?: { attr: string; value: string }; labels: string[]; placeholder?: string; alt?: string; title?: string; text?: string };
  containers: ContainerFacts[];
  css: string;
}

interface Draft {
  steps: LocatorStep[];
  strategy: Strategy;
  why: string[];
  fragile?: boolean;
  /** Order within the strategy group. */
  rank: number;
  /** Alternatives for the same idea: once one is proven, the others are skipped. */
  key: string;
}

/** Each candidate costs one page round trip: bounded. */
const MAX_CONSIDERED = 40;
/** Proofs run this many at a time. */
const BATCH = 4;
const KIND_ORDER = ['testid', 'test-attr', 'id', 'role', 'tag', 'class', 'structural'];
const GROUP_ORDER: Strategy[] = ['role', 'container', 'own', 'structural', 'nth'];
const NAMELESS_ROLES = new Set(['generic', 'none', 'presentation', 'text', 'paragraph', 'img']);

function describeStep(s: LocatorStep): string {
  return renderSteps([s], '').slice(1);
}

/** Inner steps that pick the target inside a container (or the page). */
function innerSteps(role: string | undefined, name: string | undefined, facts: Facts): { step: LocatorStep; desc: string }[] {
  const out: { step: LocatorStep; desc: string }[] = [];
  if (role && !NAMED_ONLY_SKIP(role)) {
    if (name) {
      out.push({ step: { m: 'getByRole', role, name }, desc: `${role} "${name}"` });
      out.push({ step: { m: 'getByRole', role, name, exact: true }, desc: `${role} named exactly "${name}"` });
    } else out.push({ step: { m: 'getByRole', role }, desc: `the ${role}` });
  }
  for (const l of facts.own.labels.slice(0, 1)) out.push({ step: { m: 'getByLabel', text: l }, desc: `label "${l}"` });
  if (facts.own.placeholder) out.push({ step: { m: 'getByPlaceholder', text: facts.own.placeholder }, desc: `placeholder "${facts.own.placeholder}"` });
  return out;
}

function NAMED_ONLY_SKIP(role: string): boolean {
  return NAMELESS_ROLES.has(role);
}

function drafts(facts: Facts, role: string | undefined, name: string | undefined, prefix: LocatorStep[]): Draft[] {
  const out: Draft[] = [];
  const inner = innerSteps(role, name, facts);
  // 1. role + name on the page.
  if (role && name && !NAMED_ONLY_SKIP(role)) {
    out.push({ key: 'role', steps: [...prefix, { m: 'getByRole', role, name }], strategy: 'role', rank: 0, why: [`role ${role} with accessible name "${name}" (from the snapshot)`] });
    out.push({ key: 'role', steps: [...prefix, { m: 'getByRole', role, name, exact: true }], strategy: 'role', rank: 1, why: [`role ${role} with accessible name exactly "${name}"`] });
  }
  // 2. container (+ content filter) + inner.
  // A container holding several elements like the target cannot make role + name unique: not worth a round trip.
  const containers = facts.containers.filter((c) => c.similarInside <= 1).sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.level - b.level);
  containers.forEach((c, ci) => {
    const cdesc = `ancestor L${c.level} <${c.tag}> matched by ${describeStep(c.step)} (${c.matchCount} on the page)`;
    const bases: { steps: LocatorStep[]; why: string[] }[] = [];
    if (c.matchCount === 1) bases.push({ steps: [c.step], why: [cdesc] });
    for (const t of c.filterTexts.slice(0, 2)) bases.push({ steps: [c.step, { m: 'filter', hasText: t }], why: [cdesc, `text "${t}" occurs in this one only`] });
    bases.forEach((b, bi) =>
      inner.forEach((i, ii) =>
        out.push({ key: `c${ci}`, steps: [...prefix, ...b.steps, i.step], strategy: 'container', rank: ci * 100 + bi * 10 + ii, why: [...b.why, `${i.desc} inside it`] }),
      ),
    );
  });
  // 2b. nested repeats (a list item in a list item): scope the inner container by an outer one.
  containers.forEach((c, ci) => {
    for (const t of (c.nestedFilterTexts ?? []).slice(0, 2)) {
      facts.containers
        .filter((o) => o.level > c.level && (o.matchCount === 1 || o.filterTexts.length))
        .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.level - b.level)
        .slice(0, 2)
        .forEach((o, oi) => {
          const outer: LocatorStep[] = o.matchCount === 1 ? [o.step] : [o.step, { m: 'filter', hasText: o.filterTexts[0] }];
          inner.forEach((i, ii) =>
            out.push({
              key: `n${ci}:${t}`,
              steps: [...prefix, ...outer, c.step, { m: 'filter', hasText: t }, i.step],
              strategy: 'container',
              rank: 5000 + ci * 100 + oi * 10 + ii,
              why: [
                `ancestor L${o.level} <${o.tag}> matched by ${describeStep(o.step)}${o.matchCount === 1 ? ' (unique)' : `, text "${o.filterTexts[0]}" occurs in this one only`}`,
                `inside it, ancestor L${c.level} <${c.tag}> matched by ${describeStep(c.step)} with text "${t}" (unique there)`,
                `${i.desc} inside that`,
              ],
            }),
          );
        });
    }
  });
  // 3. the element's own label / placeholder / test id / alt / title / text.
  const own = facts.own;
  if (own.testId) {
    const step: LocatorStep = own.testId.attr === 'data-testid' ? { m: 'getByTestId', value: own.testId.value } : { m: 'locator', selector: `[${own.testId.attr}="${own.testId.value.replace(/"/g, '\\"')}"]` };
    out.push({ key: 'testid', steps: [...prefix, step], strategy: 'own', rank: 0, why: [`its own ${own.testId.attr}="${own.testId.value}"`] });
  }
  own.labels.slice(0, 2).forEach((l, i) => {
    out.push({ key: `label${i}`, steps: [...prefix, { m: 'getByLabel', text: l }], strategy: 'own', rank: 10 + i, why: [`its label "${l}"`] });
    out.push({ key: `label${i}`, steps: [...prefix, { m: 'getByLabel', text: l, exact: true }], strategy: 'own', rank: 12 + i, why: [`its label, exactly "${l}"`] });
  });
  if (own.placeholder) out.push({ key: 'placeholder', steps: [...prefix, { m: 'getByPlaceholder', text: own.placeholder }], strategy: 'own', rank: 20, why: [`its placeholder "${own.placeholder}"`] });
  if (own.alt) out.push({ key: 'alt', steps: [...prefix, { m: 'getByAltText', text: own.alt }], strategy: 'own', rank: 21, why: [`its alt text "${own.alt}"`] });
  if (own.title) out.push({ key: 'title', steps: [...prefix, { m: 'getByTitle', text: own.title }], strategy: 'own', rank: 22, why: [`its title "${own.title}"`] });
  if (own.text) out.push({ key: 'text', steps: [...prefix, { m: 'getByText', text: own.text, exact: true }], strategy: 'own', rank: 23, why: [`its text "${own.text}"`] });
  // 4. structural CSS.
  out.push({ key: 'css', steps: [...prefix, { m: 'locator', selector: facts.css }], strategy: 'structural', rank: 0, why: [`CSS selector unique in the document: ${facts.css}`] });
  return out;
}

/**
 * Proof: count() and evaluate() resolve the locator in Playwright's utility world (a
 * page that patched its own DOM APIs cannot fool them); the identity check (===)
 * runs on the one match.
 */
async function verify(loc: Locator, handle: ElementHandle): Promise<{ matches: number; sameElement: boolean } | { error: string }> {
  try {
    const matches = await loc.count();
    if (matches !== 1) return { matches, sameElement: false };
    const same = await loc.evaluate((el, t) => el === t, handle, { timeout: 2000 });
    return { matches, sameElement: same };
  } catch (err) {
    return { error: ((err as Error).message ?? String(err)).split('\n')[0].slice(0, 200) };
  }
}

/** Index of the target among a locator's matches (nth() fallback), one match at a time. */
async function indexAmong(loc: Locator, handle: ElementHandle): Promise<[number, number]> {
  const n = await loc.count().catch(() => 0);
  for (let i = 0; i < Math.min(n, 200); i++) {
    if (await loc.nth(i).evaluate((el, t) => el === t, handle, { timeout: 2000 }).catch(() => false)) return [i, n];
  }
  return [-1, n];
}

export async function synthesizeLocators(state: PageState, opts: { ref: string; max?: number; baseline?: boolean }): Promise<LocatorsResponse> {
  const t0 = Date.now();
  const max = opts.max ?? 5;
  const bridge = Bridge.for(state);
  const target = await resolveInspectTarget(state, { ref: opts.ref });
  const { result: facts, world } = await bridge.runOnCaught<Facts>([{ locator: target.locator, tag: 'target', single: true }], 'locatorFacts', {});
  const chain = world.parentId ? await frameChain(bridge, world) : [];
  const prefix: LocatorStep[] = chain.map((selector) => ({ m: 'frameLocator', selector }));
  const node = state.lastSnapshot ? findRef(state.lastSnapshot.tree, opts.ref) : null;
  const role = node?.role;
  const name = node?.name;
  const page = state.page;
  const handle = await target.locator.elementHandle({ timeout: 2000 });
  if (!handle) throw new AppError('ref_not_found', `Ref ${opts.ref} does not resolve on the current page.`, { ref: opts.ref });
  try {
    const all = drafts(facts, role, name, prefix);
    const seen = new Set<string>();
    const verified: (LocatorCandidate & { group: number; rank: number })[] = [];
    const rejected: { code: string; reason: string }[] = [];
    let considered = 0;
    const provenKeys = new Set<string>();
    // Drafts come best first (group, then rank). They are proven a few at a time in
    // parallel (round trips overlap); a result is used in draft order, and dropped when
    // an earlier draft of the same idea (key) was proven in the same batch.
    let i = 0;
    while (i < all.length && verified.length < max && considered < MAX_CONSIDERED) {
      const batch: { d: Draft; code: string }[] = [];
      const keys = new Set<string>();
      while (i < all.length && batch.length < BATCH && considered + batch.length < MAX_CONSIDERED) {
        const d = all[i++];
        const code = renderSteps(d.steps);
        if (seen.has(code) || provenKeys.has(d.key)) continue;
        // Two alternatives of one idea in the same batch would race: the later waits.
        if (keys.has(d.key)) {
          i--;
          break;
        }
        seen.add(code);
        keys.add(d.key);
        batch.push({ d, code });
      }
      if (!batch.length) continue;
      considered += batch.length;
      const results = await Promise.all(batch.map(({ d }) => verify(buildLocator(page, d.steps), handle)));
      batch.forEach(({ d, code }, k) => {
        const v = results[k];
        if ('error' in v) return void rejected.push({ code, reason: v.error });
        if (v.matches !== 1 || !v.sameElement) {
          return void rejected.push({ code, reason: v.matches === 0 ? 'matches nothing' : v.matches > 1 ? `matches ${v.matches} elements` : 'matches a different element' });
        }
        if (verified.length >= max) return;
        provenKeys.add(d.key);
        verified.push({ code, strategy: d.strategy, why: d.why, verified: v, group: GROUP_ORDER.indexOf(d.strategy), rank: d.rank });
      });
    }
    // 5. nth() only when nothing else is unique.
    if (!verified.length && role && !NAMED_ONLY_SKIP(role)) {
      const base: LocatorStep[] = [...prefix, { m: 'getByRole', role, ...(name ? { name, exact: true } : {}) }];
      const loc = buildLocator(page, base);
      const index = await indexAmong(loc, handle);
      if (index[0] >= 0) {
        const steps: LocatorStep[] = [...base, { m: 'nth', index: index[0] }];
        const v = await verify(buildLocator(page, steps), handle);
        considered++;
        if (!('error' in v) && v.matches === 1 && v.sameElement) {
          verified.push({
            code: renderSteps(steps), strategy: 'nth', fragile: true, group: 4, rank: 0, verified: v,
            why: [`${index[1]} elements are ${role}${name ? ` "${name}"` : ''}; this is number ${index[0]} in document order`, 'fragile: breaks when such elements are added, removed or reordered'],
          });
        }
      }
    }
    verified.sort((a, b) => a.group - b.group || a.rank - b.rank);
    const baseline = opts.baseline === false ? { source: 'Playwright locator.normalize()', error: 'skipped (baseline=false)' } : await normalizeBaseline(target.locator, handle);
    return {
      ref: opts.ref,
      url: page.url(),
      target: { tag: facts.tag, ...(role ? { role } : {}), ...(name ? { name } : {}) },
      ...(chain.length ? { frameSelector: chain.join(' >> ') } : {}),
      locators: verified.slice(0, max).map(({ group: _g, rank: _r, ...c }) => c),
      baseline,
      rejected: rejected.slice(0, 10),
      considered,
      verification: 'Each locator was resolved on the live page with Playwright: count() is exactly 1, and that one match is the ref\'s element (=== in the page).',
      durationMs: Date.now() - t0,
    };
  } finally {
    await handle.dispose().catch(() => {});
  }
}

/** Playwright's own locator.normalize(), verified the same way, for comparison. */
async function normalizeBaseline(ref: Locator, handle: ElementHandle): Promise<LocatorsResponse['baseline']> {
  const source = 'Playwright locator.normalize()';
  try {
    const n = await ref.normalize();
    const code = `page.${n.toString()}`;
    const v = await verify(n, handle);
    return 'error' in v ? { source, code, error: v.error } : { source, code, ...v };
  } catch (err) {
    return { source, error: ((err as Error).message ?? String(err)).split('\n')[0].slice(0, 200) };
  }
}
