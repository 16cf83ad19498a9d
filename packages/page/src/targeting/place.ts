import type { Page } from 'playwright-core';
import { conceptsOfName, conceptsOfWords } from './iconography.js';
import type { DescribedTarget, TargetAction } from './spec.js';
import { applyScope, iconLike, isClickableNode, type Flat, type TreeMatch } from './tree-match.js';

// Pictures told apart by where they sit (issue 25 §5): "the archive icon at the bottom right of
// the 'Update privacy policy' card", "the arrow at the bottom left of its card". A page that
// draws its icons by hand (no icon set, no label, no class word) leaves the place a person
// points at as the only name the picture has. A rank stage for that case only:
//   candidates  the controls in the one container the scope names whose picture is unread (or
//               reads as the words), never one whose picture says something else;
//   rank        by their boxes: the one at that place, alone there, in that part of the container.
// Without a scope or a place it answers nothing: a place alone on a whole page is too wide.

export interface Place {
  v?: 'top' | 'bottom';
  h?: 'left' | 'right';
}

const CORNER = /\b(top|upper|bottom|lower)[- ](right|left)(?:[- ]hand)?\b/i;
const SIDE = /\b(?:far[- ](right|left)|(right|left)[- ]?(?:hand\s+)?(?:end|edge)|(?:on|at)\s+the\s+(right|left)\s+(?:of|side\s+of)|end\s+of\s+(?:that|the|this|its|his|her|their)\s+(?:row|line))\b/i;
const EDGE = /\b(?:at|along|on|in)\s+the\s+(?:very\s+)?(top|bottom|foot|head)\s+(?:of|edge|row)\b/i;

/** Where in its container the words say the control sits; null when they say no place. */
export function placeIn(description: string): Place | null {
  const d = description.replace(/["“”‘’'][^"“”‘’']*["“”‘’']/g, ' ');
  if (NEIGHBOUR.test(d)) return null;
  const c = CORNER.exec(d);
  if (c) return { v: /top|upper/i.test(c[1]) ? 'top' : 'bottom', h: c[2].toLowerCase() as 'left' | 'right' };
  const out: Place = {};
  const s = SIDE.exec(d);
  if (s) out.h = ((s[1] ?? s[2] ?? s[3])?.toLowerCase() as 'left' | 'right' | undefined) ?? 'right';
  const e = EDGE.exec(d);
  if (e) out.v = /top|head/i.test(e[1]) ? 'top' : 'bottom';
  return out.h || out.v ? out : null;
}

// Pictures the surface pass reads from an <svg>'s geometry (bridge/injected/surface-glyphs.ts):
// drawn plainly, an arrow, a cross or a plus is read, so an unread picture is most likely not one
// of them. Words that name only such pictures ("the → arrow") never pick an unread one by place.
const READ_BY_SHAPE = new Set(['×', '+', '−', '✓', '‹', '›', '⌃', '⌄', '←', '→', '↑', '↓', '☰', '⋯', '⋮', '★', '🔍'].flatMap((g) => conceptsOfWords(g)));
// "just left of the box icon", "next to the bin": a neighbour says where, and the extreme of the
// container is then not the one meant.
const NEIGHBOUR = /\b(?:(?:just|right|immediately|directly)\s+(?:to\s+the\s+)?(?:left|right|before|after)|to\s+the\s+(?:left|right))\s+(?:of\s+)?(?:the|a|an)\s|\b(?:next\s+to|beside|besides)\s/i;

/** Does this control's picture fit the words: unread, or read as one of the words' icons? */
function pictureFits(f: Flat, want: number[]): boolean {
  if (!iconLike(f)) return false;
  const have = conceptsOfName(f.name, f.node.inferredFrom);
  if (!have.length) return true;
  return have.some((c) => want.includes(c));
}

interface Box { x: number; y: number; width: number; height: number }

/**
 * The one control at the place the words say, among the unread pictures of the scope's
 * container; null when there is no such set or no single one stands there.
 */
export async function byPlace(page: Page, flat: Flat[], spec: DescribedTarget, place: Place, action: TargetAction): Promise<Extract<TreeMatch, { kind: 'hit' }> | null> {
  if (!spec.scope || !['click', 'hover'].includes(action)) return null;
  // The words must name a picture (or none at all: "the button at the bottom right of X").
  const want = spec.phrase ? conceptsOfWords(spec.phrase) : [];
  if (spec.phrase && (!want.length || want.every((c) => READ_BY_SHAPE.has(c)))) return null;
  const pool = flat.filter((f) => isClickableNode(f.node) && pictureFits(f, want));
  // A clickable box around its own icon is one control: the outer one.
  const set = new Set(pool.map((f) => f.node));
  const controls = pool.filter((f) => !f.ancestors.some((a) => set.has(a)));
  const scoped = applyScope(controls, spec.scope, false, true).filter((x) => x.container);
  if (!scoped.length) return null;
  // The innermost container only (the card, not the list holding it), and one of them.
  const inner = scoped.filter((x) => !scoped.some((y) => y.container !== x.container && y.f.ancestors.includes(x.container!)));
  const container = inner[0].container!;
  if (inner.some((x) => x.container !== container) || !container.ref || inner.length > 8) return null;
  const boxOf = (ref: string): Promise<Box | null> => page.locator(`aria-ref=${ref}`).boundingBox({ timeout: 1000 }).catch(() => null);
  const [outer, ...boxes] = await Promise.all([boxOf(container.ref), ...inner.map((x) => boxOf(x.f.ref))]);
  if (!outer) return null;
  const items = inner.map((x, i) => ({ f: x.f, b: boxes[i] })).filter((x): x is { f: Flat; b: Box } => Boolean(x.b && x.b.width > 0 && x.b.height > 0));
  if (!items.length) return null;
  const cx = (b: Box) => b.x + b.width / 2;
  const cy = (b: Box) => b.y + b.height / 2;
  // In that part of the container (its right half for "right", its lower half for "bottom").
  let left = items.filter(({ b }) => (!place.h || (place.h === 'right' ? cx(b) > cx(outer) : cx(b) < cx(outer))) && (!place.v || (place.v === 'bottom' ? cy(b) > cy(outer) : cy(b) < cy(outer))));
  // Then the extreme on each axis the words name; a tie within a few pixels is no answer.
  const TIE = 4;
  for (const axis of ['v', 'h'] as const) {
    const dir = place[axis];
    if (!dir || left.length < 2) continue;
    const key = (b: Box) => (axis === 'v' ? (dir === 'bottom' ? b.y + b.height : -b.y) : dir === 'right' ? b.x + b.width : -b.x);
    const best = Math.max(...left.map(({ b }) => key(b)));
    left = left.filter(({ b }) => key(b) >= best - TIE);
  }
  if (left.length !== 1) return null;
  const hit = left[0].f;
  const where = [place.v, place.h].filter(Boolean).join(' ');
  return {
    kind: 'hit',
    ref: hit.ref,
    node: hit.node,
    role: hit.node.role,
    name: hit.name,
    rung: 'place',
    why: `the ${hit.name ? `"${hit.name}" ` : 'unnamed '}${hit.node.role} at the ${where} of the container that shows "${spec.scope}" (its picture names nothing the page says; the place picks it)`,
  };
}
