// The AI snapshot as Playwright's ariaSnapshotJSON returns it: element nodes with a
// role, an optional name and ref, properties, and children that are nodes or text.
// Everything the service serves (scoped, depth-limited, budgeted views and diffs) is
// cut from this one full-page tree, because a second ariaSnapshot() call would
// replace the page's ref map and break refs the agent already holds.

export interface AriaElement {
  role: string;
  /** Playwright's accessible name, untouched. */
  name?: string;
  /** A name a person reads, for an element whose accessible name is empty (surface pass). */
  inferredName?: string;
  /** Where inferredName came from: aria-label, title, alt, svg-title, ligature, shape, icon (a known icon set's picture, by fingerprint), class, data, file (an image's or CSS background's file name), testid, label, text, column (the column header of a switch or of a field alone in a table cell). */
  inferredFrom?: string;
  /** A field's kind: multiline (textarea) or an input type (date, password, email...). */
  kind?: string;
  /** A select's current choice. */
  value?: string;
  ref?: string;
  children?: AriaNode[];
  text?: string;
  url?: string;
  [prop: string]: unknown;
}
export type AriaNode = AriaElement | string;

export const STRUCTURAL_KEYS = new Set(['role', 'name', 'ref', 'children', 'text', 'url']);

/**
 * The name a person reads for a node: its accessible name, else the inferred one. Use it
 * wherever a person's name for the element is wanted (ladder matching, planners, diffs,
 * candidate lists); locators keep using `name`, which the page's accessibility tree backs.
 */
export function displayName(n: AriaElement): string {
  return n.name || n.inferredName || '';
}

export function isElement(n: AriaNode): n is AriaElement {
  return typeof n === 'object' && n !== null;
}

export function normalizeTree(raw: unknown): AriaNode[] {
  if (Array.isArray(raw)) return raw as AriaNode[];
  if (raw && typeof raw === 'object') return [raw as AriaElement];
  return [];
}

export interface Counts {
  nodes: number;
  refs: number;
}

/** Nodes (elements and text) and refs in a subtree, the node itself included. */
export function countSubtree(n: AriaNode): Counts {
  if (!isElement(n)) return { nodes: 1, refs: 0 };
  let nodes = 1;
  let refs = n.ref ? 1 : 0;
  for (const c of n.children ?? []) {
    const s = countSubtree(c);
    nodes += s.nodes;
    refs += s.refs;
  }
  return { nodes, refs };
}

export function countForest(nodes: AriaNode[]): Counts {
  return nodes.reduce<Counts>((acc, n) => {
    const c = countSubtree(n);
    return { nodes: acc.nodes + c.nodes, refs: acc.refs + c.refs };
  }, { nodes: 0, refs: 0 });
}

export function findRef(nodes: AriaNode[], ref: string): AriaElement | null {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.ref === ref) return n;
    const hit = findRef(n.children ?? [], ref);
    if (hit) return hit;
  }
  return null;
}

/** Every ref in the tree with its element, in document order. */
export function indexRefs(nodes: AriaNode[], out = new Map<string, AriaElement>()): Map<string, AriaElement> {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.ref) out.set(n.ref, n);
    indexRefs(n.children ?? [], out);
  }
  return out;
}

/** The node's own properties (no children), for diffs and collapsed summaries. */
export function shallow(n: AriaElement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(n)) if (k !== 'children') out[k] = v;
  return out;
}

/**
 * Are two snapshot trees the same (deep equality of their plain JSON data)? Stops at the
 * first difference; used to skip work that only a changed page needs (the title read).
 */
export function sameTree(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameTree(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!sameTree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
