import type { Locator, Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { indexRefs, isElement, type AriaElement, type AriaNode } from '../snapshot/tree.js';
import { extractPhrases, roleHintFor, type AriaRole } from './phrases.js';

// Ref first (seed 004): a ref from the latest snapshot resolves through Playwright's
// aria-ref engine. With no ref, a description goes down a deliberate ladder (quoted
// phrases first; role with a hint from the words, then label, placeholder, text),
// taking only visible elements. Ambiguity is an error that lists the candidates with
// their refs, and a miss comes back with diagnostics the agent can act on.

export interface ResolvedTarget {
  locator: Locator;
  ref?: string;
  resolvedBy: string;
  /** Playwright code for the rung that matched, e.g. getByRole('button', { name: 'Save' }). */
  code?: string;
}

export async function resolveRef(state: PageState, ref: string): Promise<ResolvedTarget> {
  if (!/^[a-z0-9]+$/i.test(ref)) {
    throw new AppError('invalid_request', `"${ref}" is not a snapshot ref (refs look like e12 or f1e3).`, { field: 'ref' });
  }
  const locator = state.page.locator(`aria-ref=${ref}`);
  // A missing ref would make click() wait out its whole timeout: check first, answer at once.
  let count = 0;
  try {
    count = await locator.count();
  } catch {
    count = 0;
  }
  if (count === 1) return { locator, ref, resolvedBy: 'ref' };
  if (state.isStaleRef(ref)) {
    throw new AppError('ref_stale', `Ref ${ref} belongs to a page this tab has navigated away from.`, {
      ref,
      url: state.page.url(),
      hint: 'The page navigated since that snapshot: take a fresh snapshot and use its refs.',
    });
  }
  throw new AppError('ref_not_found', `Ref ${ref} does not resolve on the current page.`, {
    ref,
    url: state.page.url(),
    issued: state.wasIssued(ref),
    hint: state.wasIssued(ref)
      ? 'The element is gone or changed since the snapshot: take a fresh snapshot and use its refs.'
      : 'This ref was never issued for this tab: take a snapshot first and use a ref from it.',
  });
}

type RungKind = 'role' | 'label' | 'placeholder' | 'text';

function q(s: string): string {
  return JSON.stringify(s).replace(/^"|"$/g, "'").replace(/\\"/g, '"');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The rung's locator for a phrase: fuzzy (substring, any case) or the whole name in any case. */
function rungLocator(page: Page, kind: RungKind, phrase: string, hint: AriaRole | null, exact: boolean): { locator: Locator; code: string } {
  const re = new RegExp(`^\\s*${escapeRegExp(phrase)}\\s*$`, 'i');
  const arg = exact ? re.toString() : q(phrase);
  switch (kind) {
    case 'role':
      return { locator: page.getByRole(hint!, { name: exact ? re : phrase }), code: `getByRole('${hint}', { name: ${arg} })` };
    case 'label':
      return { locator: page.getByLabel(exact ? re : phrase), code: `getByLabel(${arg})` };
    case 'placeholder':
      return { locator: page.getByPlaceholder(exact ? re : phrase), code: `getByPlaceholder(${arg})` };
    case 'text':
      return { locator: page.getByText(exact ? re : phrase), code: `getByText(${arg})` };
  }
}

/** Visible matches only: a hidden element never wins, however well it matches. */
async function visibleCount(locator: Locator): Promise<{ visible: Locator; count: number }> {
  const visible = locator.filter({ visible: true });
  return { visible, count: await visible.count().catch(() => 0) };
}

export interface DescribeOptions {
  /** How long to keep retrying the ladder while the page settles. */
  waitMs: number;
}

interface Ambiguity {
  rung: string;
  phrase: string;
  visible: Locator;
  count: number;
}

/**
 * The ladder, strongest kind of match first: with a role hint from the words, the role
 * rung is tried for every phrase before any label, placeholder or text match, so "the
 * Sign in button" is the button even when a link has the same text. Within a rung,
 * phrases go most specific first; a fuzzy match that finds several elements narrows to
 * a whole-name match if that is unique. A rung that stays ambiguous ends the descent:
 * a weaker rung must not win just because it happens to match one thing.
 */
async function runLadder(state: PageState, phrases: string[], hint: AriaRole | null): Promise<ResolvedTarget | Ambiguity | null> {
  const kinds: RungKind[] = hint ? ['role', 'label', 'placeholder', 'text'] : ['label', 'placeholder', 'text'];
  const hit = await tryRungs(state, kinds, phrases, hint);
  // The page can change during a pass (a list still loading): when a weaker rung won,
  // look once more at the stronger ones, so the order of the ladder holds.
  if (hit && hit.kind !== kinds[0]) {
    const stronger = await tryRungs(state, kinds.slice(0, kinds.indexOf(hit.kind)), phrases, hint);
    if (stronger) return stronger.result;
  }
  return hit ? hit.result : null;
}

async function tryRungs(state: PageState, kinds: RungKind[], phrases: string[], hint: AriaRole | null): Promise<{ kind: RungKind; result: ResolvedTarget | Ambiguity } | null> {
  const page = state.page;
  for (const kind of kinds) {
    let ambiguity: Ambiguity | null = null;
    for (const phrase of phrases) {
      const fuzzy = rungLocator(page, kind, phrase, hint, false);
      let { visible, count } = await visibleCount(fuzzy.locator);
      let code = fuzzy.code;
      if (count > 1) {
        const exact = rungLocator(page, kind, phrase, hint, true);
        const narrowed = await visibleCount(exact.locator);
        if (narrowed.count === 1) ({ visible, count, code } = { ...narrowed, code: exact.code });
      }
      const rung = kind === 'role' ? `role:${hint}` : kind;
      if (count === 1) return { kind, result: { locator: visible, resolvedBy: `description:${rung}`, code } };
      if (count > 1 && !ambiguity) ambiguity = { rung, phrase, visible, count };
    }
    if (ambiguity) return { kind, result: ambiguity };
  }
  return null;
}

export async function resolveDescription(state: PageState, description: string, opts: DescribeOptions): Promise<ResolvedTarget> {
  const page = state.page;
  const phrases = extractPhrases(description);
  const hint = roleHintFor(description);
  if (phrases.length === 0) {
    throw new AppError('invalid_request', 'description has no words to match.', { field: 'description' });
  }
  const deadline = Date.now() + opts.waitMs;
  for (;;) {
    const hit = await runLadder(state, phrases, hint);
    if (hit && 'resolvedBy' in hit) return hit;
    if (hit) {
      const shown = Math.min(hit.count, 10);
      throw new AppError('ambiguous_target', `"${description}" matches ${hit.count} visible elements (${hit.rung}: ${hit.phrase}); pick one by ref.`, {
        description,
        phrase: hit.phrase,
        rung: hit.rung,
        matchCount: hit.count,
        candidates: await describeCandidates(state, Array.from({ length: shown }, (_, i) => hit.visible.nth(i)), hit.phrase),
        hint: 'Use one of the candidate refs, or a more specific description.',
      });
    }
    if (Date.now() >= deadline) break;
    await page.waitForTimeout(Math.min(250, Math.max(0, deadline - Date.now())));
  }
  throw new AppError('target_not_found', `No visible element matches "${description}".`, await collectDiagnostics(state, description, phrases, hint));
}

/** Refs of the main frame, in document order (the ladder only searches the main frame). */
function mainFrameRefs(nodes: AriaNode[], out: [string, AriaElement][] = []): [string, AriaElement][] {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.ref) out.push([n.ref, n]);
    // An iframe's content lives in another frame: its elements cannot be compared here.
    if (n.role !== 'iframe') mainFrameRefs(n.children ?? [], out);
  }
  return out;
}

/** Does the node show the phrase in its name, a property or its own text? */
function mentions(n: AriaElement, needle: string): boolean {
  for (const [k, v] of Object.entries(n)) if (k !== 'children' && typeof v === 'string' && v.toLowerCase().includes(needle)) return true;
  return (n.children ?? []).some((c) => typeof c === 'string' && c.toLowerCase().includes(needle));
}

/**
 * Candidates with the refs the agent can use, matched by element identity to the refs
 * of a fresh full snapshot. Refs that mention the phrase are compared first, so a big
 * page costs a handful of look-ups instead of one per ref.
 */
async function describeCandidates(state: PageState, matches: Locator[], phrase: string): Promise<{ ref?: string; role?: string; name?: string; text: string }[]> {
  const page = state.page;
  const { current } = await state.snapshot(5000);
  const refs = mainFrameRefs(current.tree);
  const needle = phrase.toLowerCase();
  const likely = refs.filter(([, n]) => mentions(n, needle));
  const rest = refs.filter(([, n]) => !mentions(n, needle)).slice(0, 1000);
  const cands = await Promise.all(matches.map((m) => m.elementHandle({ timeout: 2000 }).catch(() => null)));
  const texts = await Promise.all(
    cands.map((h) => (h ? h.evaluate((el) => (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 80)).catch(() => '') : Promise.resolve(''))),
  );
  const found: (AriaElement | undefined)[] = cands.map(() => undefined);
  try {
    for (const pool of [likely, rest]) {
      if (cands.every((h, i) => !h || found[i])) break;
      const handles = await Promise.all(pool.map(([ref]) => page.locator(`aria-ref=${ref}`).elementHandle({ timeout: 2000 }).catch(() => null)));
      try {
        // One page call compares every candidate with every ref element.
        const idx = await page.evaluate(([c, r]) => c.map((x) => (x ? r.indexOf(x) : -1)), [cands, handles] as const);
        idx.forEach((k, i) => {
          if (k >= 0 && !found[i]) found[i] = pool[k][1];
        });
      } finally {
        await Promise.all(handles.map((h) => h?.dispose().catch(() => {})));
      }
    }
  } catch {
    /* candidates without refs still carry their text */
  } finally {
    await Promise.all(cands.map((h) => h?.dispose().catch(() => {})));
  }
  return cands.map((_, i) => {
    const hit = found[i];
    return { ...(hit ? { ref: hit.ref, role: hit.role, ...(hit.name ? { name: hit.name } : {}) } : {}), text: texts[i] };
  });
}

export async function collectDiagnostics(state: PageState, description: string, phrases: string[], hint: AriaRole | null): Promise<Record<string, unknown>> {
  const page = state.page;
  const phrase = phrases[0];
  const [roleCount, labelCount, placeholderCount, textCount] = await Promise.all([
    hint ? page.getByRole(hint, { name: phrase }).count().catch(() => 0) : Promise.resolve(null),
    page.getByLabel(phrase).count().catch(() => 0),
    page.getByPlaceholder(phrase).count().catch(() => 0),
    page.getByText(phrase).count().catch(() => 0),
  ]);
  // Samples come from the tree the agent works with, so they carry refs.
  let sampleButtons: { ref?: string; name?: string }[] = [];
  let sampleLinks: { ref?: string; name?: string; url?: string }[] = [];
  let closest: { ref?: string; role: string; name?: string }[] = [];
  try {
    const { current } = await state.snapshot(5000);
    const all = [...indexRefs(current.tree).values()];
    sampleButtons = all.filter((n) => n.role === 'button').slice(0, 10).map((n) => ({ ref: n.ref, name: n.name }));
    sampleLinks = all.filter((n) => n.role === 'link').slice(0, 10).map((n) => ({ ref: n.ref, name: n.name, url: n.url }));
    const words = description.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2);
    closest = all
      .filter((n) => n.name)
      .map((n) => ({ n, score: words.filter((w) => n.name!.toLowerCase().includes(w)).length }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 5)
      .map(({ n }) => ({ ref: n.ref, role: n.role, name: n.name }));
  } catch {
    /* diagnostics are best effort */
  }
  return {
    description,
    phrases,
    roleHint: hint,
    roleCount,
    labelCount,
    placeholderCount,
    textCount,
    closestMatches: closest,
    sampleButtons,
    sampleLinks,
    currentUrl: page.url(),
    hint: 'Take a fresh snapshot and act on a ref from it instead of rewording the description.',
  };
}
