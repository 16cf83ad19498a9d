// Generated ids and class names: values a framework, a bundler or the app itself makes
// up per build, per render or per session. A locator anchored on one matches nothing in
// the next session (or the next deploy), so locator synthesis never anchors on them.
// Pure string logic: bundled into the in-page bridge and unit-tested on the host.

export type TokenKind = 'id' | 'class' | 'testid';

/** Framework / library prefixes and shapes, each with the reason reported. */
const FRAMEWORK: [RegExp, string][] = [
  [/[:«»]/, 'React useId (":r3:", "«r3»")'],
  [/^radix-/, 'Radix generated id'],
  [/^headlessui-/, 'Headless UI generated id'],
  [/^(?:aria|downshift|reach|react-select|rc-tabs|rc-select|mantine|chakra|__next)-.*\d/, 'component library generated id'],
  [/^v-[0-9a-f]{4,}$/i, 'Vue generated id'],
  [/^data-v-/, 'Vue scoped-style attribute'],
  [/^_?ng(?:content|host)-/, 'Angular view encapsulation attribute'],
  [/^ng-(?:tns|star-inserted|untouched|pristine|valid|invalid|dirty|touched)/, 'Angular runtime class'],
  [/^(?:mat|cdk|mdc)-[a-z-]*-?\d+$/, 'Angular Material counter id'],
  [/^ember\d+$/, 'Ember view id'],
  [/^mui-\d+$/, 'MUI counter id'],
  [/^(?:css|emotion)-[a-z0-9]+(?:-[\w-]+)?$/i, 'emotion/CSS-in-JS hashed class'],
  [/^sc-[A-Za-z0-9]+$/, 'styled-components class'],
  [/^svelte-[a-z0-9]+$/, 'Svelte scoped class'],
  [/^jsx-\d+$/, 'styled-jsx class'],
  [/^(?:makeStyles|jss)[\w-]*\d+$/, 'JSS generated class'],
  [/^x-[a-z0-9]{6,}$/i, 'generated id'],
  [/__(?=[\w-]*(?:\d|[A-Z]))[\w-]{5}$/, 'CSS modules hash'],
];

const UUID = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/i;

/** One piece of a token between separators looks random (a hash, a nonce). */
function randomSegment(seg: string): string | null {
  const digits = (seg.match(/\d/g) ?? []).length;
  const letters = (seg.match(/[A-Za-z]/g) ?? []).length;
  // Hex or base36 with letters and digits mixed: "8f3a9c", "3xYzA", "a1b2c3".
  if (seg.length >= 4 && digits >= 1 && letters >= 1 && /[a-z]\d|\d[a-z]/i.test(seg)) {
    // Short tokens such as "h264", "mp3" or "col2" end or start in digits only once; a hash interleaves.
    const switches = (seg.match(/[a-z]\d|\d[a-z]/gi) ?? []).length;
    if (switches >= 2 || seg.length >= 8 || (/^[0-9a-f]+$/i.test(seg) && seg.length >= 5)) return 'hash-like segment';
  }
  // Long hex runs: "deadbeef01", "f3a9c2e4".
  if (seg.length >= 6 && /^[0-9a-f]+$/i.test(seg) && digits >= 2) return 'hex hash';
  // Letters only but unpronounceable and case-scrambled: styled-components "kQzhHn", CSS modules "_2xYq".
  if (seg.length >= 5 && letters === seg.length && !/[aeiouy]/i.test(seg)) return 'random letters';
  if (seg.length >= 5 && letters === seg.length && /[a-z][A-Z][a-z]*[A-Z]/.test(seg) && (seg.match(/[A-Z]/g) ?? []).length >= Math.ceil(seg.length / 3)) return 'case-scrambled hash';
  return null;
}

/**
 * Why `value` looks generated, or null when it reads as hand-written.
 * ids and test ids: counters count ("item-5", "ember123", "input7"); classes may carry
 * short design-system numbers ("col-md-6", "mt-3", "h1").
 */
export function generatedReason(value: string, kind: TokenKind = 'id'): string | null {
  const v = value.trim();
  if (!v) return null;
  if (v.length > 64) return 'very long value';
  for (const [re, why] of FRAMEWORK) if (re.test(v)) return why;
  if (UUID.test(v)) return 'UUID';
  if (/^\d/.test(v) && kind !== 'class') return 'starts with a digit';
  if (/\d{4,}/.test(v)) return 'long number';
  const segs = v.split(/[-_:.]+/).filter(Boolean);
  for (const s of segs) {
    const r = randomSegment(s);
    if (r) return r;
  }
  if (kind !== 'class') {
    if (/[-_]\d+$/.test(v) || /[a-z]\d{2,}$/i.test(v)) return 'counter suffix';
    if (/^[a-z]+\d$/i.test(v) && v.length > 3 && !/^h\d$/.test(v)) return 'counter suffix';
    // A number in the middle ("row-3-cell"): an index.
    if (/[-_]\d+[-_]/.test(v)) return 'index in the middle';
  }
  return null;
}

export function isGenerated(value: string, kind: TokenKind = 'id'): boolean {
  return generatedReason(value, kind) !== null;
}
