import type { LocatorStep } from './steps.js';
import { generatedReason } from '../bridge/injected/generated-ids.js';

// Candidate locators composed from the facts the bridge gathers around a target, their
// weaknesses and their score. Pure: bundled into the in-page bridge (which drafts,
// matches and ranks every candidate in one round trip) and unit-testable on the host.

export type Strategy = 'role' | 'container' | 'own' | 'structural' | 'nth';

export type AnchorKind = 'heading' | 'text' | 'own' | 'whole';

/** A text of a container usable to pick it among its look-alikes. */
export interface Anchor {
  text: string;
  /** heading: exact accessible name of a heading; text: exact full text of an element; own: a substring only (hasText). */
  kind: AnchorKind;
}

export interface ContainerFacts {
  level: number;
  kind: 'testid' | 'test-attr' | 'id' | 'role' | 'tag' | 'class' | 'structural';
  step: LocatorStep;
  tag: string;
  matchCount: number;
  anchors: Anchor[];
  nestedAnchors?: Anchor[];
  similarInside: number;
}

export interface OwnFacts {
  testId?: { attr: string; value: string };
  labels: string[];
  placeholder?: string;
  alt?: string;
  title?: string;
  text?: string;
}

export interface Facts {
  tag: string;
  markupRole?: string;
  own: OwnFacts;
  containers: ContainerFacts[];
  css: string;
}

export interface Draft {
  steps: LocatorStep[];
  strategy: Strategy;
  why: string[];
  /** Texts the locator relies on, and the level of the element whose near-duplicate copy extends them (0: the target). */
  anchors: { text: string; level: number }[];
  /** Alternatives for the same idea: only the best proven one is kept. */
  key: string;
  rank: number;
}

export type WeaknessKind = 'positional' | 'generated-id' | 'data-text' | 'css-structure' | 'css-class' | 'near-duplicate' | 'whole-text' | 'long-chain';

export interface Weakness {
  kind: WeaknessKind;
  detail: string;
}

const KIND_ORDER = ['testid', 'test-attr', 'id', 'role', 'tag', 'class', 'structural'];
export const NAMELESS_ROLES = new Set(['generic', 'none', 'presentation', 'text', 'paragraph', 'img']);

export function describeStep(s: LocatorStep): string {
  switch (s.m) {
    case 'getByRole':
      return `getByRole('${s.role}'${s.name !== undefined ? `, { name: '${s.name}'${s.exact ? ', exact: true' : ''} }` : ''})`;
    case 'getByTestId':
      return `getByTestId('${s.value}')`;
    case 'locator':
    case 'frameLocator':
      return `${s.m}('${s.selector}')`;
    case 'filter':
      return 'filter(...)';
    case 'nth':
      return `nth(${s.index})`;
    default:
      return `${s.m}('${s.text}')`;
  }
}

/** The filter that picks a container by an anchor: exact heading or text when the markup allows it. */
export function anchorFilter(a: Anchor): LocatorStep {
  if (a.kind === 'heading') return { m: 'filter', has: [{ m: 'getByRole', role: 'heading', name: a.text, exact: true }] };
  if (a.kind === 'text') return { m: 'filter', has: [{ m: 'getByText', text: a.text, exact: true }] };
  if (a.kind === 'whole') return { m: 'filter', hasTextRegex: wholeTextRegex(a.text) };
  return { m: 'filter', hasText: a.text };
}

/** The container's whole text, exactly (whitespace-tolerant): /^\s*Desk\s+Lamp\s+Remove\s*$/. */
export function wholeTextRegex(text: string): string {
  const words = text.split(/\s+/).filter(Boolean).map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return `^\\s*${words.join('\\s+')}\\s*$`;
}

function anchorWhy(a: Anchor): string {
  if (a.kind === 'heading') return `its heading is exactly "${a.text}" (no other has it)`;
  if (a.kind === 'text') return `it holds an element whose text is exactly "${a.text}" (no other does)`;
  if (a.kind === 'whole') return `its whole text is exactly "${a.text}" (no other's is)`;
  return `text "${a.text}" occurs in this one only (substring match)`;
}

function innerSteps(role: string | undefined, name: string | undefined, own: OwnFacts): { step: LocatorStep; desc: string; anchor?: string }[] {
  const out: { step: LocatorStep; desc: string; anchor?: string }[] = [];
  if (role && !NAMELESS_ROLES.has(role)) {
    if (name) out.push({ step: { m: 'getByRole', role, name, exact: true }, desc: `${role} named exactly "${name}"`, anchor: name });
    else out.push({ step: { m: 'getByRole', role }, desc: `the ${role}` });
  }
  const l = own.labels[0];
  if (l) out.push({ step: { m: 'getByLabel', text: l, exact: true }, desc: `label exactly "${l}"`, anchor: l });
  if (own.placeholder) out.push({ step: { m: 'getByPlaceholder', text: own.placeholder, exact: true }, desc: `placeholder exactly "${own.placeholder}"`, anchor: own.placeholder });
  return out;
}

/** Role + exact name on the page: the first draft (the host proves it alone when it wins outright). */
export function roleDraft(role: string, name: string): Draft {
  return { key: 'role', steps: [{ m: 'getByRole', role, name, exact: true }], strategy: 'role', rank: 0, anchors: [{ text: name, level: 0 }], why: [`role ${role} with accessible name exactly "${name}" (from the snapshot)`] };
}

/** Every candidate worth matching, roughly best first. */
export function drafts(facts: Facts, role: string | undefined, name: string | undefined): Draft[] {
  const out: Draft[] = [];
  const inner = innerSteps(role, name, facts.own);
  const innerAnchors = (i: { anchor?: string }) => (i.anchor ? [{ text: i.anchor, level: 0 }] : []);
  // 1. role + exact name on the page.
  if (role && name && !NAMELESS_ROLES.has(role)) out.push(roleDraft(role, name));
  // 2. container (+ anchor filter) + inner. A container holding several elements like the target cannot make the inner step unique.
  const containers = facts.containers.filter((c) => c.similarInside <= 1).sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.level - b.level);
  containers.forEach((c, ci) => {
    const cdesc = `ancestor L${c.level} <${c.tag}> matched by ${describeStep(c.step)} (${c.matchCount} on the page)`;
    const bases: { steps: LocatorStep[]; why: string[]; anchors: { text: string; level: number }[] }[] = [];
    if (c.matchCount === 1) bases.push({ steps: [c.step], why: [cdesc], anchors: [] });
    for (const a of c.anchors.slice(0, 3)) bases.push({ steps: [c.step, anchorFilter(a)], why: [cdesc, anchorWhy(a)], anchors: [{ text: a.text, level: c.level }] });
    bases.forEach((b, bi) =>
      inner.forEach((i, ii) =>
        out.push({ key: `c${ci}:${bi}`, steps: [...b.steps, i.step], strategy: 'container', rank: ci * 100 + bi * 10 + ii, anchors: [...b.anchors, ...innerAnchors(i)], why: [...b.why, `${i.desc} inside it`] }),
      ),
    );
  });
  // 2b. nested repeats (a list item in a list item): scope the inner container by an outer one.
  containers.forEach((c, ci) => {
    for (const a of (c.nestedAnchors ?? []).slice(0, 2)) {
      facts.containers
        .filter((o) => o.level > c.level && (o.matchCount === 1 || o.anchors.length))
        .sort((x, y) => KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind) || x.level - y.level)
        .slice(0, 2)
        .forEach((o, oi) => {
          const outer: LocatorStep[] = o.matchCount === 1 ? [o.step] : [o.step, anchorFilter(o.anchors[0])];
          const oAnchors = o.matchCount === 1 ? [] : [{ text: o.anchors[0].text, level: o.level }];
          inner.forEach((i, ii) =>
            out.push({
              key: `n${ci}:${a.text}:${oi}`,
              steps: [...outer, c.step, anchorFilter(a), i.step],
              strategy: 'container',
              rank: 5000 + ci * 100 + oi * 10 + ii,
              anchors: [...oAnchors, { text: a.text, level: c.level }, ...innerAnchors(i)],
              why: [
                `ancestor L${o.level} <${o.tag}> matched by ${describeStep(o.step)}${o.matchCount === 1 ? ' (unique)' : `, ${anchorWhy(o.anchors[0])}`}`,
                `inside it, ancestor L${c.level} <${c.tag}> matched by ${describeStep(c.step)}: ${anchorWhy(a)}`,
                `${i.desc} inside that`,
              ],
            }),
          );
        });
    }
  });
  // 3. the element's own test id / label / placeholder / alt / title / text, exact.
  const own = facts.own;
  if (own.testId) {
    const step: LocatorStep = own.testId.attr === 'data-testid' ? { m: 'getByTestId', value: own.testId.value } : { m: 'locator', selector: `[${own.testId.attr}="${own.testId.value.replace(/"/g, '\\"')}"]` };
    out.push({ key: 'testid', steps: [step], strategy: 'own', rank: 0, anchors: [], why: [`its own ${own.testId.attr}="${own.testId.value}"`] });
  }
  own.labels.slice(0, 2).forEach((l, i) => out.push({ key: `label${i}`, steps: [{ m: 'getByLabel', text: l, exact: true }], strategy: 'own', rank: 10 + i, anchors: [{ text: l, level: 0 }], why: [`its label, exactly "${l}"`] }));
  const ownText = (key: string, m: 'getByPlaceholder' | 'getByAltText' | 'getByTitle' | 'getByText', text: string | undefined, rank: number, what: string) => {
    if (text) out.push({ key, steps: [{ m, text, exact: true }], strategy: 'own', rank, anchors: [{ text, level: 0 }], why: [`its ${what}, exactly "${text}"`] });
  };
  ownText('placeholder', 'getByPlaceholder', own.placeholder, 20, 'placeholder');
  ownText('alt', 'getByAltText', own.alt, 21, 'alt text');
  ownText('title', 'getByTitle', own.title, 22, 'title');
  ownText('text', 'getByText', own.text, 23, 'text');
  // 4. structural CSS.
  out.push({ key: 'css', steps: [{ m: 'locator', selector: facts.css }], strategy: 'structural', rank: 0, anchors: [], why: [`CSS selector unique in the document: ${facts.css}`] });
  return out;
}

// Text that changes with the data behind the page: prices, counts, dates, times, percentages.
const DATA_TEXT: [RegExp, string][] = [
  [/[$€£¥₹]\s?\d|\d\s?(?:[$€£¥₹]|USD|EUR|GBP)\b/i, 'a price'],
  [/\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b|\b\d{4}-\d{2}-\d{2}/, 'a date'],
  [/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i, 'a date'],
  [/\b\d{1,2}:\d{2}\b/, 'a time'],
  [/\b(?:\d+|an?|one) (?:second|minute|hour|day|week|month|year)s? ago\b|\b(?:yesterday|today|just now)\b/i, 'a relative time'],
  [/\d\s?%/, 'a percentage'],
  [/\b\d+ (?:items?|results?|left|comments?|replies|reviews?|likes?|views?|votes?|followers?|messages?|notifications?|products?|users?|points?|stars?|in stock)\b/i, 'a count'],
  [/\(\d+\)|^\d+(?:[.,]\d+)?$/, 'a number'],
];

export function dataTextReason(text: string): string | null {
  for (const [re, why] of DATA_TEXT) if (re.test(text)) return why;
  return null;
}

/** Weaknesses of a candidate read from its steps (the near-duplicate check adds its own). */
export function weaknessesOf(d: Draft): Weakness[] {
  const out: Weakness[] = [];
  const seenText = new Set<string>();
  for (const a of d.anchors) {
    if (seenText.has(a.text)) continue;
    seenText.add(a.text);
    const why = dataTextReason(a.text);
    if (why) out.push({ kind: 'data-text', detail: `"${a.text}" looks like ${why}: it changes with the data` });
  }
  const visit = (steps: LocatorStep[]) => {
    for (const s of steps) if (s.m === 'filter' && s.hasTextRegex !== undefined) out.push({ kind: 'whole-text', detail: 'matches the container\'s whole text: breaks when any text in it changes' });
    for (const s of steps) {
      if (s.m === 'nth') out.push({ kind: 'positional', detail: `nth(${s.index}): breaks when matching elements are added, removed or reordered` });
      if (s.m === 'getByTestId') {
        const g = generatedReason(s.value, 'testid');
        if (g) out.push({ kind: 'generated-id', detail: `test id "${s.value}" looks generated (${g})` });
      }
      if (s.m === 'locator') {
        const sel = s.selector;
        if (/:nth-(?:of-type|child|last-child|last-of-type)\(/.test(sel)) out.push({ kind: 'positional', detail: `${sel}: position among siblings` });
        if (/[>+~]|\S\s+[a-z*]/i.test(sel.replace(/\[[^\]]*\]/g, '[]'))) out.push({ kind: 'css-structure', detail: `${sel}: depends on the DOM structure (breaks when a wrapper is added or moved)` });
        else if (/^[a-z][\w-]*$/i.test(sel) && !sel.includes('-')) out.push({ kind: 'css-structure', detail: `${sel}: a bare tag` });
        for (const m of sel.matchAll(/#([\w-]+)|\[(?:id|data-testid|data-test|data-cy)="([^"]+)"\]/g)) {
          const v = m[1] ?? m[2];
          const g = generatedReason(v, 'id');
          if (g) out.push({ kind: 'generated-id', detail: `"${v}" looks generated (${g})` });
        }
        for (const m of sel.matchAll(/\.([\w-]+)/g)) {
          const g = generatedReason(m[1], 'class');
          if (g) out.push({ kind: 'generated-id', detail: `class "${m[1]}" looks generated (${g})` });
          else out.push({ kind: 'css-class', detail: `class "${m[1]}": styling, may be renamed` });
        }
      }
      if (s.m === 'filter' && s.has) visit(s.has);
    }
  };
  visit(d.steps);
  const depth = d.steps.filter((s) => s.m !== 'frameLocator').length;
  if (depth > 4) out.push({ kind: 'long-chain', detail: `${depth} steps` });
  return out;
}

const BASE: Record<Strategy, number> = { role: 100, container: 92, own: 88, structural: 45, nth: 25 };
const OWN_BASE: Record<string, number> = { testid: 96, label0: 90, label1: 89, placeholder: 84, alt: 82, title: 78, text: 76 };
const PENALTY: Record<WeaknessKind, number> = { 'generated-id': 60, positional: 35, 'css-structure': 25, 'near-duplicate': 30, 'data-text': 25, 'whole-text': 10, 'css-class': 6, 'long-chain': 4 };
const FRAGILE: WeaknessKind[] = ['generated-id', 'positional', 'css-structure', 'near-duplicate', 'data-text'];

/** 0..100: higher survives more change. Every weakness costs, so the score says what the list says. */
export function scoreOf(d: Draft, weaknesses: Weakness[]): { score: number; fragile: boolean } {
  let s = d.strategy === 'own' ? (OWN_BASE[d.key] ?? BASE.own) : BASE[d.strategy];
  if (d.strategy === 'container') s -= Math.min(6, Math.floor(d.rank / 100));
  const counted = new Set<string>();
  for (const w of weaknesses) {
    // One penalty per kind (two classes are not twice as fragile as one).
    if (counted.has(w.kind)) continue;
    counted.add(w.kind);
    s -= PENALTY[w.kind];
  }
  s = Math.max(0, Math.min(100, s));
  return { score: s, fragile: s < 60 || weaknesses.some((w) => FRAGILE.includes(w.kind)) };
}
