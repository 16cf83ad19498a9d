import { type AriaElement, type AriaNode, isElement } from '../snapshot/tree.js';
import type { ChildrenEdit, NewNode, NodeEdit, SurfaceResult } from '../bridge/injected/surface.js';

// Applies the in-page surface pass's edits (bridge/injected/surface.ts) to the snapshot JSON:
// attributes on nodes it names (inferredName, kind, value; a switch drawn without ARIA gets role
// switch and checked, or state 'unknown'), and new children lists where it
// brings back a clickable icon or splits a clickable word out of a paragraph's text.
// Edits address nodes by ref and old children by index in the distilled tree, which maps one
// to one onto Playwright's JSON (a node with one text child shows it as `text`).

export type { SurfaceResult };

/** Old children of a JSON node, as the distilled tree had them. */
function childrenOf(n: AriaElement): AriaNode[] {
  if (n.children) return n.children;
  return typeof n.text === 'string' ? [n.text] : [];
}

function newNode(n: NewNode): AriaElement {
  // Key order as rendered: role, names, flags, ref, cursor last (Playwright's order).
  const out: AriaElement = { role: n.role };
  if (n.inferredName) {
    out.inferredName = n.inferredName;
    out.inferredFrom = n.inferredFrom;
  }
  if (n.value !== undefined) out.value = n.value;
  if (n.checked !== undefined) out.checked = n.checked;
  if (n.state) out.state = n.state;
  if (n.clickable) out.clickable = true;
  out.ref = n.ref;
  if (n.cursor) out.cursor = n.cursor;
  if (n.text) out.text = n.text;
  return out;
}

function setChildren(n: AriaElement, kids: AriaNode[]): void {
  if (kids.length === 1 && typeof kids[0] === 'string') {
    delete n.children;
    n.text = kids[0];
    return;
  }
  delete n.text;
  if (kids.length) n.children = kids;
  else delete n.children;
}

/** Adds the edit's keys to the node in place, before its ref (cursor after it), as the renderers print them. */
function addEdit(n: AriaElement, e: NodeEdit): void {
  const entries = Object.entries(n);
  for (const [k] of entries) delete n[k];
  for (const [k, v] of entries) {
    if (k === 'name' && e.dropName) continue;
    if (k === 'ref') {
      if (e.inferredName && (!n.name || e.dropName)) { n.inferredName = e.inferredName; n.inferredFrom = e.inferredFrom; }
      if (e.kind) n.kind = e.kind;
      if (e.value !== undefined) n.value = e.value;
      if (e.checked !== undefined) n.checked = e.checked;
      if (e.state) n.state = e.state;
      if (e.clickable) n.clickable = true;
    }
    n[k] = k === 'role' && e.role ? e.role : v;
  }
}

/** Nodes with a ref, by ref (one walk, no copies). */
function byRef(nodes: AriaNode[], out: Map<string, AriaElement>): Map<string, AriaElement> {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.ref) out.set(n.ref, n);
    if (n.children) byRef(n.children, out);
  }
  return out;
}

function rebuilt(old: AriaNode[], edit: ChildrenEdit, root: boolean): AriaNode[] {
  return edit.children.flatMap((x): AriaNode[] => {
    if (typeof x === 'number') return old[x] === undefined ? [] : [old[x]];
    if (typeof x === 'string') return [root ? { role: 'text', text: x } : x];
    return [newNode(x)];
  });
}

/**
 * Applies the pass's edits to a tree fresh from the page, in place (a snapshot tree is built for
 * this call and shared with no one yet); returns the roots (a new array when they changed).
 * Nodes are found by ref in one walk: a large page with a few edits costs one traversal.
 */
export function applySurface(tree: AriaNode[], result: SurfaceResult | null | undefined): AriaNode[] {
  if (!result || (!result.children.length && !Object.keys(result.edits).length)) return tree;
  const index = byRef(tree, new Map());
  let roots = tree;
  // Children first (by index into the lists as the page had them), then attributes.
  for (const c of result.children) {
    if (c.parent === null) {
      // Root-level texts are `{ role: 'text', text }` in Playwright's JSON.
      const old: AriaNode[] = roots.map((n) => (isElement(n) && n.role === 'text' && typeof n.text === 'string' && !n.ref && Object.keys(n).length === 2 ? n.text : n));
      roots = rebuilt(old, c, true);
      continue;
    }
    const n = index.get(c.parent);
    if (!n) continue;
    setChildren(n, rebuilt(childrenOf(n), c, false));
  }
  for (const [ref, e] of Object.entries(result.edits)) {
    const n = index.get(ref);
    if (n) addEdit(n, e);
  }
  return roots;
}
