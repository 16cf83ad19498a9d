import { isElement, type AriaElement, type AriaNode } from '../snapshot/tree.js';

// Links DOM facts back to the refs the agent holds, using the latest full snapshot
// tree (never a new ariaSnapshot call, which would replace the page's ref map).

/** Aria ancestors of a ref, outermost first (the ref's own node excluded); null if absent. */
export function ariaPath(tree: AriaNode[], ref: string): AriaElement[] | null {
  const path: AriaElement[] = [];
  const rec = (nodes: AriaNode[]): boolean => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      if (n.ref === ref) return true;
      path.push(n);
      if (rec(n.children ?? [])) return true;
      path.pop();
    }
    return false;
  };
  return rec(tree) ? path : null;
}

/** Refs below a node, in document order (the node itself excluded). */
export function descendantRefs(node: AriaElement, out: string[] = []): string[] {
  for (const c of node.children ?? []) {
    if (!isElement(c)) continue;
    if (c.ref) out.push(c.ref);
    descendantRefs(c, out);
  }
  return out;
}

/** Which path refs to resolve in the page: all of them when few, else the outermost two and the nearest eight. */
export function pathRefsToResolve(path: AriaElement[], max = 10): string[] {
  const refs = path.map((n) => n.ref).filter((r): r is string => !!r);
  if (refs.length <= max) return refs;
  return [...refs.slice(0, 2), ...refs.slice(refs.length - (max - 2))];
}
