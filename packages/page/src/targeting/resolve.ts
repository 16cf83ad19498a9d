import type { Locator, Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { indexRefs, type AriaElement } from '../snapshot/tree.js';
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

interface Rung {
  name: string;
  code: string;
  locator: Locator;
}

function q(s: string): string {
  return JSON.stringify(s).replace(/^"|"$/g, "'").replace(/\\"/g, '"');
}

function rungsFor(page: Page, phrase: string, hint: AriaRole | null): Rung[] {
  const rungs: Rung[] = [];
  if (hint) {
    rungs.push({ name: `role:${hint}`, code: `getByRole('${hint}', { name: ${q(phrase)} })`, locator: page.getByRole(hint, { name: phrase }) });
  }
  rungs.push(
    { name: 'label', code: `getByLabel(${q(phrase)})`, locator: page.getByLabel(phrase) },
    { name: 'placeholder', code: `getByPlaceholder(${q(phrase)})`, locator: page.getByPlaceholder(phrase) },
    { name: 'text', code: `getByText(${q(phrase)})`, locator: page.getByText(phrase) },
  );
  return rungs;
}

async function visibleMatches(locator: Locator, cap = 20): Promise<Locator[]> {
  const n = Math.min(await locator.count().catch(() => 0), cap);
  const out: Locator[] = [];
  for (let i = 0; i < n; i++) {
    const l = locator.nth(i);
    if (await l.isVisible().catch(() => false)) out.push(l);
  }
  return out;
}

export interface DescribeOptions {
  /** How long to keep retrying the ladder while the page settles. */
  waitMs: number;
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
    for (const phrase of phrases) {
      for (const rung of rungsFor(page, phrase, hint)) {
        let matches = await visibleMatches(rung.locator);
        if (matches.length > 1) {
          // Several fuzzy matches: an exact-name match, if unique, is not a guess.
          const exact = await visibleMatches(exactVariant(page, rung, phrase, hint));
          if (exact.length === 1) matches = exact;
        }
        if (matches.length === 1) {
          return { locator: matches[0], resolvedBy: `description:${rung.name}`, code: rung.code };
        }
        if (matches.length > 1) {
          throw new AppError('ambiguous_target', `"${description}" matches ${matches.length} visible elements (${rung.name}: ${phrase}); pick one by ref.`, {
            description,
            phrase,
            rung: rung.name,
            candidates: await describeCandidates(state, matches.slice(0, 10)),
            hint: 'Use one of the candidate refs, or a more specific description.',
          });
        }
      }
    }
    if (Date.now() >= deadline) break;
    await page.waitForTimeout(Math.min(250, Math.max(0, deadline - Date.now())));
  }
  throw new AppError('target_not_found', `No visible element matches "${description}".`, await collectDiagnostics(state, description, phrases, hint));
}

function exactVariant(page: Page, rung: Rung, phrase: string, hint: AriaRole | null): Locator {
  if (rung.name.startsWith('role:') && hint) return page.getByRole(hint, { name: phrase, exact: true });
  if (rung.name === 'label') return page.getByLabel(phrase, { exact: true });
  if (rung.name === 'placeholder') return page.getByPlaceholder(phrase, { exact: true });
  return page.getByText(phrase, { exact: true });
}

/** Candidates with the refs the agent can use: matched to refs of a fresh full snapshot. */
async function describeCandidates(state: PageState, matches: Locator[]): Promise<{ ref?: string; role?: string; name?: string; text: string }[]> {
  const { current } = await state.snapshot(5000);
  const refs = [...indexRefs(current.tree).entries()];
  const page = state.page;
  const candHandles = (await Promise.all(matches.map((m) => m.elementHandle({ timeout: 1000 }).catch(() => null)))).filter((h) => h !== null);
  // Compare elements in one page call: candidate handles against every ref's element.
  const refLocs = refs.slice(0, 2000).map(([ref]) => ref);
  const refHandles = await Promise.all(refLocs.map((r) => page.locator(`aria-ref=${r}`).elementHandle({ timeout: 500 }).catch(() => null)));
  const idx: number[] = await page.evaluate(
    ([cands, refEls]) => cands.map((c) => (refEls as unknown[]).indexOf(c)),
    [candHandles, refHandles] as const,
  );
  await Promise.all([...candHandles, ...refHandles].map((h) => h?.dispose().catch(() => {})));
  return Promise.all(
    candHandles.map(async (h, i) => {
      const hit = idx[i] >= 0 ? (refs[idx[i]][1] as AriaElement) : undefined;
      const text = ((await h.textContent().catch(() => '')) ?? '').trim().replace(/\s+/g, ' ').slice(0, 80);
      return { ...(hit ? { ref: hit.ref, role: hit.role, ...(hit.name ? { name: hit.name } : {}) } : {}), text };
    }),
  );
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
