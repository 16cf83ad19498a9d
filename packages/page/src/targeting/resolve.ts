import type { Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { indexRefs, isElement, type AriaElement, type AriaNode } from '../snapshot/tree.js';
import { extractPhrases, roleHintFor, type AriaRole } from './phrases.js';
import { describeSpec, dropIconGloss, parseDescription, parseRowAction, type DescribedTarget, type TargetAction } from './spec.js';
import { namingWords, unaccounted } from './prove.js';
import { isIconWords } from './iconography.js';

const ROW_LEAD = /^(?:please\s+)?(?:click|tap|press|hit)(?:\s+on)?\s+(?:the\s+)?(?=\S)/i;
import { locate } from './locate.js';

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
  /** What it acted on and why that rung (description targets). */
  role?: string;
  name?: string;
  why?: string;
  group?: boolean;
  /** Static text taken as a click target (see Located.static). */
  static?: boolean;
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

export interface DescribeOptions {
  /** How long to keep looking while the page settles. */
  waitMs: number;
  /** What will be done with the element: only an element that can take it resolves. */
  action?: TargetAction;
  /** A select's values: with words that name no list by name ("the list"), the list offering them. */
  values?: string[];
}

export async function resolveDescription(state: PageState, description: string, opts: DescribeOptions): Promise<ResolvedTarget> {
  const phrases = extractPhrases(description);
  const hint = roleHintFor(description);
  if (phrases.length === 0 || !description.trim()) {
    throw new AppError('invalid_request', 'description has no words to match.', { field: 'description' });
  }
  const action = opts.action ?? 'any';
  let spec = parseDescription(description, null);
  // "Select Peru in the list": the one list (select, listbox) that offers the values.
  if (action === 'select' && opts.values?.length && !spec.phrase && !spec.quoted) spec = { ...spec, role: 'combobox', offers: opts.values };
  if (!spec.phrase && !spec.role && !spec.scope) spec.phrase = phrases[0];
  // "Archive Invoice 12": the Archive control inside the row that shows exactly "Invoice 12"
  // (an element named by the whole description still wins first); never the row's name alone.
  // Not when the words end in an overlay or landmark: "Remove member in the row menu" is the
  // menu's item, not "Remove" in a row that shows "member".
  const row = action === 'click' && !spec.landmark ? parseRowAction(description.trim().replace(/[.!?;,:]+$/g, '').replace(ROW_LEAD, '')) : null;
  // "the Done column", "the Write tests card" (a drag's ends): the words without the container noun too.
  const extra: DescribedTarget[] = [];
  const noun = ['drag', 'any'].includes(action) && spec.phrase && !spec.quoted ? /^(.+?)\s+(?:column|lane|list|bucket|card|tile|item|box|zone|area|folder|section|panel|group|row)$/i.exec(spec.phrase) : null;
  if (noun) extra.push({ ...spec, phrase: noun[1] });
  // "Search the catalog": the row reading missed, so the whole words, as an exact name only.
  const whole = description.trim().replace(/[.!?;,:]+$/g, '').trim();
  const specs = row ? [...row.specs, { phrase: whole.replace(ROW_LEAD, ''), role: null, strict: true }] : [spec, ...extra];
  try {
    const wholeName = row || (spec.phrase && whole.toLowerCase() !== spec.phrase.toLowerCase()) ? whole : undefined;
    const found = await locate(state, specs, { action, waitMs: opts.waitMs, description, ...(wholeName ? { wholeName } : {}) });
    // No silent pick: every word that names something is on the element or around it.
    // Words the resolver accounted for on the way: a route it opened, a neighbour it placed the
    // target by, a notice bar the words named by what it is.
    const route = [/(?:revealed by|found after opening) .*$/.exec(found.why ?? '')?.[0] ?? '', ...(found.accounted ?? [])].join(' ');
    // A picture picked by its place shows nothing a person reads: its picture words are the place's to prove.
    // A glyph a derived reading left out ("'+ Add a card'" read as "Add a card": the + is an icon of its own).
    const words = namingWords(dropIconGloss(description)).filter((w) => (!found.placed || !isIconWords(w)) && (!found.derived || /[\p{L}\p{N}]/u.test(w)));
    const missing = await unaccounted(found.locator, words, route, found.name ?? '');
    if (missing.length) {
      throw new AppError('target_not_found', `"${description}": understood ${describeSpec(specs[0]) || 'the words'}; the nearest match (${found.role ?? 'element'}${found.name ? ` "${found.name}"` : ''}) does not show ${missing.map((w) => `"${w}"`).join(', ')}, on it or around it, so it was not used.`, {
        understood: specs[0],
        notFound: missing,
        nearestMatch: { ...(found.ref ? { ref: found.ref } : {}), ...(found.role ? { role: found.role } : {}), ...(found.name ? { name: found.name } : {}), why: found.why },
      });
    }
    return found;
  } catch (err) {
    if (err instanceof AppError && err.code === 'target_not_found') {
      // The ladder's counts and samples, plus the resolver's nearest candidates.
      const diag = await collectDiagnostics(state, description, phrases, hint);
      throw new AppError('target_not_found', err.message, { ...diag, ...(err.details ?? {}), description });
    }
    throw err;
  }
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
export async function describeCandidates(state: PageState, matches: Locator[], phrase: string): Promise<{ ref?: string; role?: string; name?: string; text: string }[]> {
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
