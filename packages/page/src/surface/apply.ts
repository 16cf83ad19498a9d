import { type AriaElement, type AriaNode, isElement } from '../snapshot/tree.js';
import type { ChildrenEdit, NewNode, NodeEdit, SurfaceResult } from '../bridge/injected/surface.js';

// Applies the in-page surface pass's edits (bridge/injected/surface.ts) to the snapshot JSON:
// attributes on nodes it names (inferredName, kind, value), and new children lists where it
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

function withEdit(n: AriaElement, e: NodeEdit): AriaElement {
  // Rebuilt so the new keys sit before ref (and cursor after it), as the renderers print them.
  const out: AriaElement = { role: n.role };
  for (const [k, v] of Object.entries(n)) {
    if (k === 'ref') {
      if (e.inferredName && !n.name) { out.inferredName = e.inferredName; out.inferredFrom = e.inferredFrom; }
      if (e.kind) out.kind = e.kind;
      if (e.value !== undefined) out.value = e.value;
    }
    out[k] = v;
  }
  return out;
}

/** The tree with the pass's edits (a new tree where anything changed; the input is not mutated). */
export function applySurface(tree: AriaNode[], result: SurfaceResult | null | undefined): AriaNode[] {
  if (!result || (!result.children.length && !Object.keys(result.edits).length)) return tree;
  const byParent = new Map<string | null, ChildrenEdit>();
  for (const c of result.children) byParent.set(c.parent, c);
  const visit = (nodes: AriaNode[], edit: ChildrenEdit | undefined, root: boolean): AriaNode[] => {
    const list: AriaNode[] = edit
      ? edit.children.flatMap((x): AriaNode[] => {
        if (typeof x === 'number') return nodes[x] === undefined ? [] : [nodes[x]];
        if (typeof x === 'string') return [root ? { role: 'text', text: x } : x];
        return [newNode(x)];
      })
      : nodes;
    return list.map((n) => {
      if (!isElement(n)) return n;
      let out = n;
      const e = n.ref ? result.edits[n.ref] : undefined;
      if (e) out = withEdit(out, e);
      const ce = n.ref ? byParent.get(n.ref) : undefined;
      const kids = childrenOf(n);
      if (ce || kids.some(isElement)) {
        const next = visit(kids, ce, false);
        if (ce || next.some((k, i) => k !== kids[i])) {
          if (out === n) out = { ...n };
          setChildren(out, next);
        }
      }
      return out;
    });
  };
  // The roots are Playwright's top-level nodes; a root-level text is `{ role: 'text', text }`.
  const rootEdit = byParent.get(null);
  if (rootEdit) {
    const unwrapped: AriaNode[] = tree.map((n) => (isElement(n) && n.role === 'text' && typeof n.text === 'string' && !n.ref && Object.keys(n).length === 2 ? n.text : n));
    const mapped = visit(unwrapped, rootEdit, true);
    return mapped.map((n) => (typeof n === 'string' ? { role: 'text', text: n } : n));
  }
  return visit(tree, undefined, true);
}
