import type { Page } from 'playwright-core';

// Evidence for a text the page was expected to show and does not: is it there but hidden
// (and why), else which visible texts are nearest to it. One in-page pass over the main
// frame's document (open shadow roots included); the flows' assertions give the same
// answer to the report and to a model planner.
//
// "Nearest" was once the lines sharing the most words with the expected text. For
// "Walk the dog" on a to-do list that picked the footer ("Created by the TodoMVC Team"):
// the only shared word was "the", a word every sentence has, and lines sharing no word
// (the list's "Buy milk") were dropped, however much more like the missing text they
// were. Now the measure is:
//   lexical  — words weighted by how rare they are among the page's own texts (a word
//              most texts have weighs little, in any language; function words such as
//              "the" a tenth, since on a small page even "the" is rare), and character
//              trigrams of the content words (typos, plurals), whichever is higher;
//   shape    — a text of about the same length, in a repeated item (list entry, row,
//              option, one of several siblings alike) rather than page chrome (footer,
//              navigation, banner): where a missing entry would have been.
// The lexical part dominates when something shares real words; the shape part ranks the
// rest, so with nothing in common the neighbours of the missing entry come first.

export interface HiddenMatch {
  /** The element's text (clipped). */
  text: string;
  /** Why it is not visible: each reason names the element that causes it. Empty: it is visible. */
  why: string[];
  /** What the element is (tag, role) and where (a landmark around it). */
  where: string;
}

export interface NearText {
  text: string;
  /** Similarity 0..1 (see above). */
  score: number;
  where: string;
}

export interface TextEvidence {
  /** Elements whose text contains the expected text but are not visible (with why). */
  hidden: HiddenMatch[];
  /** Elements containing the text that are visible (the text may still fail an exact match). */
  visible: number;
  /** Visible texts most like the expected one, best first. */
  nearest: NearText[];
}

interface EvidenceArgs {
  want: string;
  maxNearest: number;
  maxElements: number;
}

/** Runs in the page (serialized by page.evaluate): everything it uses is inside it. */
function collect(args: EvidenceArgs): TextEvidence {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const clip = (s: string, n = 120) => {
    const t = s.replace(/\s+/g, ' ').trim();
    return t.length > n ? `${t.slice(0, n - 1)}…` : t;
  };
  const want = norm(args.want);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'TITLE', 'SVG', 'PATH']);
  const name = (el: Element) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += `#${el.id}`;
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean).slice(0, 2) : [];
    if (cls.length) s += `.${cls.join('.')}`;
    return `<${s}>`;
  };
  const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.parentNode as ShadowRoot | null)?.host ?? null);

  // Elements with text of their own, in document order (into open shadow roots).
  const withText: Element[] = [];
  const walk = (root: Element | ShadowRoot) => {
    for (const el of Array.from(root.children)) {
      if (withText.length >= args.maxElements) return;
      if (SKIP.has(el.tagName.toUpperCase())) continue;
      if (Array.from(el.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? '').trim())) withText.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
      walk(el);
    }
  };
  if (document.body) walk(document.body);

  const landmark = (el: Element) => {
    const l = el.closest('footer, nav, header, aside, [role=contentinfo], [role=navigation], [role=banner], [role=complementary]');
    if (!l) return '';
    const role = l.getAttribute('role') ?? { footer: 'footer', nav: 'navigation', header: 'banner', aside: 'complementary' }[l.tagName.toLowerCase()] ?? '';
    return role;
  };
  const where = (el: Element) => {
    const role = el.getAttribute('role');
    const lm = landmark(el);
    return `${name(el)}${role ? ` role=${role}` : ''}${lm ? ` in ${lm}` : ''}`;
  };

  /** Why an element is not visible, each reason naming the element that causes it. */
  const reasons = (el: Element): string[] => {
    const out: string[] = [];
    const rect = el.getBoundingClientRect();
    for (let a: Element | null = el; a; a = parentOf(a)) {
      const cs = getComputedStyle(a);
      if (cs.display === 'none') out.push(a.hasAttribute('hidden') ? `hidden attribute on ${name(a)}` : `display: none on ${name(a)}`);
      if (a.tagName === 'DETAILS' && !(a as HTMLDetailsElement).open && !el.closest('summary')) out.push(`inside a closed <details> (collapsed) ${name(a)}`);
      if (a.getAttribute('aria-hidden') === 'true') out.push(`aria-hidden="true" on ${name(a)} (hidden from assistive technology)`);
      if (cs.opacity === '0') out.push(`opacity: 0 on ${name(a)}`);
      if (a !== el && /(hidden|clip|auto|scroll)/.test(cs.overflow + cs.overflowX + cs.overflowY) && rect.width + rect.height > 0) {
        const box = a.getBoundingClientRect();
        if (box.height < 1 || box.width < 1) out.push(`collapsed: ${name(a)} is ${Math.round(box.width)}x${Math.round(box.height)} px with overflow hidden`);
        else if (rect.bottom <= box.top || rect.top >= box.bottom || rect.right <= box.left || rect.left >= box.right) {
          out.push(/(auto|scroll)/.test(cs.overflow + cs.overflowX + cs.overflowY) ? `scrolled out of view inside the scroller ${name(a)}` : `cut off by ${name(a)} (overflow hidden)`);
        }
      }
      const clip = cs.clipPath;
      if (clip && clip !== 'none' && /inset\(50%|circle\(0|polygon\(0px 0px, 0px 0px/.test(clip)) out.push(`clip-path on ${name(a)}`);
      if (cs.clip && /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(cs.clip)) out.push(`clipped to nothing (visually hidden) on ${name(a)}`);
    }
    const vis = getComputedStyle(el).visibility;
    if (vis === 'hidden' || vis === 'collapse') {
      let from: Element = el;
      for (let a = parentOf(el); a && getComputedStyle(a).visibility === vis; a = parentOf(a)) from = a;
      out.push(`visibility: ${vis} on ${name(from)}`);
    }
    if (!out.some((r) => r.startsWith('display') || r.startsWith('hidden attr'))) {
      if (rect.width === 0 || rect.height === 0) out.push(`zero size (${Math.round(rect.width)}x${Math.round(rect.height)} px) ${name(el)}`);
      const docW = Math.max(document.documentElement.scrollWidth, innerWidth);
      const docH = Math.max(document.documentElement.scrollHeight, innerHeight);
      if (rect.right + scrollX <= 0 || rect.bottom + scrollY <= 0 || rect.left + scrollX >= docW || rect.top + scrollY >= docH) out.push(`positioned off-screen at ${Math.round(rect.left)},${Math.round(rect.top)} ${name(el)}`);
    }
    return out;
  };
  // aria-hidden alone does not hide anything from the eye: it is said, never the only reason.
  const hiding = (rs: string[]) => rs.some((r) => !r.startsWith('aria-hidden'));

  // The deepest elements containing the text: where it is, not every ancestor of it.
  const hidden: HiddenMatch[] = [];
  let visible = 0;
  if (want) {
    const containing = withText.filter((el) => norm(el.textContent ?? '').includes(want));
    const deepest = containing.filter((el) => !containing.some((o) => o !== el && el.contains(o)));
    for (const el of deepest.slice(0, 5)) {
      const rs = reasons(el);
      if (hiding(rs)) hidden.push({ text: clip(el.textContent ?? ''), why: rs, where: where(el) });
      else visible++;
    }
  }

  // Nearest visible texts.
  // Function words say nothing about which text is meant ("the", "of", "de", "la" ...): they
  // weigh a tenth, and stay out of the trigrams, however rare the page makes them.
  const FUNCTION_WORDS = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'from', 'with', 'and', 'or', 'is', 'are', 'be', 'it', 'its', 'as', 'this', 'that', 'your', 'my', 'our', 'de', 'la', 'le', 'les', 'des', 'du', 'et', 'der', 'die', 'das', 'und', 'el', 'los', 'las', 'y', 'il', 'di']);
  const words = (s: string) => norm(s).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  const content = (s: string) => {
    const ws = words(s);
    const kept = ws.filter((w) => !FUNCTION_WORDS.has(w));
    return (kept.length ? kept : ws).join(' ');
  };
  const trigrams = (s: string) => {
    const t = `  ${content(s)} `;
    const out = new Set<string>();
    for (let i = 0; i + 3 <= t.length; i++) out.add(t.slice(i, i + 3));
    return out;
  };
  const texts = withText
    .filter((el) => !hiding(reasons(el)))
    .map((el) => ({ el, text: clip((el as HTMLElement).innerText ?? el.textContent ?? '', 200) }))
    .filter((x) => x.text && norm(x.text) !== want);
  // Document frequency of each word over the page's texts: common words weigh little.
  const df = new Map<string, number>();
  for (const x of texts) for (const w of new Set(words(x.text))) df.set(w, (df.get(w) ?? 0) + 1);
  const n = Math.max(1, texts.length);
  const weight = (w: string) => Math.log(1 + n / (1 + (df.get(w) ?? 0))) * (FUNCTION_WORDS.has(w) ? 0.1 : w.length < 3 ? 0.5 : 1);
  const wantWords = [...new Set(words(want))];
  const wantWeight = wantWords.reduce((s, w) => s + weight(w), 0) || 1;
  const wantTri = trigrams(want);
  /** The repeated item an element is in (list entry, row, option, one of several siblings alike), or null. */
  const itemOf = (el: Element): Element | null => {
    const item = el.closest('li, tr, option, article, [role=listitem], [role=row], [role=option], [role=treeitem], [role=gridcell]');
    if (item) return item;
    for (let a: Element | null = el, depth = 0; a && depth < 3; a = a.parentElement, depth++) {
      const p = a.parentElement;
      if (!p) break;
      const alike = Array.from(p.children).filter((c) => c.tagName === a!.tagName && c.className === a!.className).length;
      if (alike >= 3) return a;
    }
    return null;
  };
  const scored = texts.map((x) => {
    const tw = new Set(words(x.text));
    const shared = wantWords.filter((w) => tw.has(w)).reduce((s, w) => s + weight(w), 0) / wantWeight;
    const tri = trigrams(x.text);
    let common = 0;
    for (const g of wantTri) if (tri.has(g)) common++;
    const dice = (2 * common) / (wantTri.size + tri.size || 1);
    const lexical = Math.max(shared, dice);
    const len = Math.min(want.length, norm(x.text).length) / Math.max(want.length, norm(x.text).length, 1);
    // Page chrome (footer, navigation, banner) is seldom what a plan checks; an entry of a
    // list or grid in the page's content is where a missing entry would have been.
    const lm = landmark(x.el);
    const chrome = Boolean(lm) && lm !== 'complementary';
    const item = itemOf(x.el);
    const place = chrome ? 0 : item ? 1 : 0.4;
    const score = 0.65 * lexical + 0.35 * (0.5 * len + 0.5 * place);
    return { text: x.text, score: Math.round(score * 100) / 100, where: `${where(x.el)}${item && item !== x.el && !chrome ? ` in ${name(item)}` : ''}` };
  });
  // The same text from nested elements counts once (its best-scored place).
  const seen = new Set<string>();
  const nearest = scored
    .sort((a, b) => b.score - a.score)
    .filter((x) => (seen.has(norm(x.text)) ? false : (seen.add(norm(x.text)), true)))
    .slice(0, args.maxNearest);
  return { hidden, visible, nearest };
}

/** The evidence for a text missing from the page (main frame). */
export async function textEvidence(page: Page, want: string, opts: { maxNearest?: number; maxElements?: number } = {}): Promise<TextEvidence> {
  return page.evaluate(collect, { want, maxNearest: opts.maxNearest ?? 3, maxElements: opts.maxElements ?? 4000 });
}

/** The evidence in one line, as the report and a model planner read it (after "Expected X is visible; "). */
export function describeTextEvidence(want: string, e: TextEvidence): string {
  if (e.hidden.length) {
    const h = e.hidden[0];
    const more = e.hidden.length > 1 ? ` (and ${e.hidden.length - 1} more hidden match${e.hidden.length > 2 ? 'es' : ''})` : '';
    return `on the page but not visible: ${h.why.join('; ')} — in ${h.where} ${JSON.stringify(h.text)}${more}`;
  }
  if (e.visible > 0) return `in the page's text (${JSON.stringify(want)}), but split across elements or not as one text node`;
  if (!e.nearest.length) return 'not on the page, which shows no text';
  return `closest text on the page: ${e.nearest.map((x) => `${JSON.stringify(x.text)} (${x.where}, ${x.score})`).join(', ')}`;
}
