import type { Locator } from 'playwright-core';
import { CROSS_GLYPHS, iconAlternatives, iconGlyphs, iconPhrasesIn } from './iconography.js';

// The last stage before acting on a description (issue 24 §6): no silent pick. Every word of
// the description that names something — the element's name, its picture, the person or the
// text of its row or card — must be found on the chosen element or around it (its own text,
// label, title, alt, class or id words, and the text of the few boxes that hold it). A word
// found nowhere there means the resolver answered a different question ("the calendar icon in
// the Trista row" landing on the row's sender cell): that is a miss, not a pass.

// Words that say what to do, where to look or what kind of thing it is, not which one.
const STRUCTURE = new Set(`
click double right tap press hit select choose pick open check uncheck tick untick toggle hover over fill type enter
focus go use find please then and or the a an this that these those its his her their my your our
of in on at for from by with to into onto under below above beside besides next near inside within
behind after before front left right top bottom upper lower end start beginning corner side edge middle
button btn link hyperlink icon glyph symbol checkbox check box tick field input textbox text area textarea
dropdown drop-down drop down combobox combo select list listbox option radio switch menu item menuitem tab
row card post entry line record tile cell column table section panel dialog modal popup pop-up window bar
title titlebar header heading footer navigation nav sidebar toolbar main page screen form area region box
control element image picture logo thing one new labeled labelled named called titled saying says which is
showing shows displaying reading currently now
red green blue yellow pink grey gray black white orange purple dark light small big large little tiny
empty filled hollow solid round circular square outlined highlighted bright pale crossed out dashed dotted
e-mail email mail message user person account profile
give rate rating award score stars star-rating it them
switched-off switched-on turned-off turned-on switched turned off
blank spare unfilled new-entry new-line new-row grid lines rows entries sentence paragraph blurb
floating sticky fixed bottom-right bottom-left top-right top-left upper-right upper-left lower-right lower-left right-hand left-hand far very
confirmation confirm asking asks ask you opens opened appears appeared pops popped slides slid drawer sheet overlay popover flyout lightbox dialogue submenu
chip chips pill pills badge badges token tokens lozenge tag tags selection bulk batch between
`.split(/\s+/).filter(Boolean));

/** The words of a description that must be accounted for on the chosen element or its context. */
export function namingWords(description: string): string[] {
  let masked = description.toLowerCase().replace(/[“”"‘’']/g, ' ');
  // A count of icons ("3 stars", "4 out of 5", "star number 4") is a position in a run, not a name.
  masked = masked.replace(/\b\d{1,2}\s+out\s+of\s+\d{1,2}\b/g, ' ').replace(/\b(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s*-?\s*(?=(?:stars?|hearts?|points?|thumbs?)\b)/g, ' ').replace(/\b(?:out\s+)?of\s+(?:\d{1,2}|five|ten)\b/g, ' ').replace(/\bnumber\s+\d{1,2}\b/g, ' ');
  // "at the bottom right of the members table, right after 'X'": a place before a comma is colour (spec.ts reads it so).
  masked = masked.replace(/\b(?:on|at|in|near)\s+the\s+(?:far\s+|very\s+)?(?:top|bottom|upper|lower|right|left)(?:[\s-]+(?:right|left|hand|end|side|edge|corner))*\s+of\s+[^,]+,(?=\s*(?:right\s+|just\s+|immediately\s+)?(?:after|before|next to|beside)\s)/g, ' ');
  // Where it sits ("on the right of", "at the bottom left of") says no name ("toggle on" is no icon here).
  masked = masked.replace(/\b(?:on|at|to|in|near)\s+the\s+(?:far\s+|very\s+)?(?:top|bottom|upper|lower|right|left)(?:[\s-]+(?:right|left|hand|end|side|edge|corner|part))*\s+of\b/g, ' ');
  // A picture in several words ("the circular arrow", "the paper plane") is one naming word:
  // found on the element as any name of that icon (fa-rotate-right, autorenew, ...).
  const pictures = iconPhrasesIn(masked).filter((p) => p.includes(' '));
  for (const p of pictures) masked = masked.replace(new RegExp(p.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s_-]+'), 'g'), ' ');
  const words = [...pictures, ...masked.split(/[^\p{L}\p{N}@#._+-]+/u).map((w) => w.replace(/^[._-]+|[._-]+$/g, '')).filter(Boolean)];
  return [...new Set(words.filter((w) => !STRUCTURE.has(w) && !/^\d+(?:st|nd|rd|th)$/.test(w) && !/^(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|only)$/.test(w)))];
}

/** Each word with the words that mean the same picture ("bin" also trash, delete, remove ...). */
// Glyphs that stand for a word on a control (the × of a delete or close button, the + of add).
const GLYPHS: [RegExp, string[]][] = [
  [/^(?:delete|remove|destroy|trash|discard|bin|close|dismiss|x|cancel)$/, [...CROSS_GLYPHS, '🗑']],
  [/^(?:add|new|plus)$/, ['+']],
  [/^(?:edit|pencil)$/, ['✎', '✏']],
  // "the → arrow", "the next arrow": an arrow or chevron glyph (an SVG's shape, a character) is the arrow.
  [/^arrows?$/, ['←', '→', '↑', '↓', '‹', '›', '⌃', '⌄', '«', '»', '▲', '▼', '◀', '▶']],
];

function alternatives(word: string): string[] {
  const out = new Set([word]);
  // The same icon's other words: three letters or more (a lone "i" or "x" would be found anywhere).
  for (const w of iconAlternatives(word)) if (w.length >= 3) out.add(w);
  // The glyph the icon is drawn as (an SVG read by its shape is named ×, ⋮, 🔍).
  for (const g of iconGlyphs(word)) out.add(g);
  for (const [re, gl] of GLYPHS) if (re.test(word)) for (const w of gl) out.add(w);
  return [...out];
}

/**
 * The naming words found neither on the element nor around it (its boxes up to six levels, each
 * no bigger than a row or a card). Empty when every word is accounted for, or when the element
 * cannot be read (the action then fails on its own).
 */
export async function unaccounted(locator: Locator, words: string[], also = '', name = ''): Promise<string[]> {
  // Words the resolver already accounted for by opening a route (a tab, a menu, a section) to the element.
  const routed = also.toLowerCase();
  words = words.filter((w) => !routed.includes(w));
  if (!words.length) return [];
  const groups = words.map(alternatives);
  const found = await locator.evaluate((el: Element, { groups, name }: { groups: string[][]; name: string }) => {
    // The accessible name the resolver matched (it may come from CSS content: a "×" drawn by ::after).
    const texts: string[] = [name.toLowerCase()];
    const add = (t: string | null | undefined) => { if (t) texts.push(t.toLowerCase()); };
    const attrs = (e: Element) => {
      for (const a of ['aria-label', 'title', 'alt', 'placeholder', 'value', 'name', 'id', 'class', 'data-icon', 'data-testid', 'href']) add(e.getAttribute(a));
    };
    // Text nodes joined with spaces: "Toggle Todo" and "Walk the dog" in sibling elements stay two texts.
    const textOf = (e: Element) => {
      const parts: string[] = [];
      const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      let n = 0;
      for (let t = w.nextNode(); t && n < 800; t = w.nextNode()) { const v = (t.nodeValue ?? '').trim(); if (v) { parts.push(v); n += v.length; } }
      // Its own open shadow root and those inside (a custom element's own text).
      if (e.shadowRoot) { const v = (e.shadowRoot.textContent ?? '').replace(/\s+/g, ' ').trim(); parts.push(v); n += v.length; }
      for (const d of e.querySelectorAll('*')) if (d.shadowRoot && n < 800) { const v = (d.shadowRoot.textContent ?? '').replace(/\s+/g, ' ').trim(); parts.push(v); n += v.length; }
      return parts.join(' ');
    };
    const up = (e: Element): Element | null => e.parentElement ?? (((e.getRootNode() as ShadowRoot).host as Element | undefined) ?? null);
    add(textOf(el));
    attrs(el);
    for (const pseudo of ['::before', '::after']) add(getComputedStyle(el, pseudo).content.replace(/^["']|["']$/g, ''));
    for (const d of el.querySelectorAll('*')) attrs(d);
    for (const l of (el as HTMLInputElement).labels ?? []) add(l.textContent);
    // Its context: the boxes around it, as long as they stay the size of a row or a card.
    let a = up(el);
    for (let i = 0; a && i < 6 && a !== document.body; i++, a = up(a)) {
      if ((a.textContent ?? '').length > 1200) break;
      const t = textOf(a);
      if (t.length > 600) break;
      add(t);
      attrs(a);
      // A row being edited shows its text in fields ("Hotel - 2 nights" in the Description box).
      for (const f of [...a.querySelectorAll('input:not([type=hidden]):not([type=password]), textarea')].slice(0, 12)) add((f as HTMLInputElement).value);
      // A field's label beside it, a row's heading.
      for (const s of [a.previousElementSibling, a.nextElementSibling]) if (s && (s.textContent ?? '').length <= 80) add(textOf(s));
    }
    const hay = texts.join(' \u0000 ').replace(/[-_]+/g, ' ');
    // The word itself by its stem ("star" in "starred"); the same icon's other words whole
    // ("pen" never in "pending").
    const has = (w: string, whole: boolean) => {
      const stem = w.replace(/(?:es|s)$/, '');
      const re = new RegExp(`(?:^|[^\\p{L}\\p{N}])${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[-_]+/g, ' ')}${whole ? '(?:e?s)?(?:$|[^\\p{L}\\p{N}])' : ''}`, 'u');
      return re.test(hay);
    };
    return groups.map((g) => g.some((w, i) => has(w, i > 0 && /^[\p{L}\p{N} ]+$/u.test(w))));
  }, { groups, name }, { timeout: 1500 }).catch(() => groups.map(() => true));
  return words.filter((_, i) => !found[i]);
}
