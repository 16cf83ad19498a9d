import { type AriaElement, type AriaNode, indexRefs, isElement, shallow } from './tree.js';

// What changed between two snapshots of the same page, keyed by ref. A node without
// a ref (text, options) has no identity of its own, so its changes show up as a
// change of the nearest ref'd ancestor.

export interface DiffAdded {
  ref: string;
  role: string;
  name?: string;
  parentRef?: string;
}
export interface DiffRemoved {
  ref: string;
  role: string;
  name?: string;
}
export interface DiffChanged {
  ref: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}
export interface SnapshotDiffResult {
  added: DiffAdded[];
  removed: DiffRemoved[];
  changed: DiffChanged[];
  unchanged: number;
}

/** A node's own facts plus its ref-less content, which it owns for diff purposes. */
function signature(n: AriaElement): Record<string, unknown> {
  const own = shallow(n);
  const content: unknown[] = [];
  for (const c of n.children ?? []) {
    if (!isElement(c)) content.push(c);
    else if (!c.ref) content.push(signature(c));
  }
  if (content.length) own.content = content;
  return own;
}

function parents(nodes: AriaNode[], parentRef: string | undefined, out: Map<string, string | undefined>): void {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.ref) out.set(n.ref, parentRef);
    parents(n.children ?? [], n.ref ?? parentRef, out);
  }
}

export function diffSnapshots(before: AriaNode[], after: AriaNode[]): SnapshotDiffResult {
  const a = indexRefs(before);
  const b = indexRefs(after);
  const parentOf = new Map<string, string | undefined>();
  parents(after, undefined, parentOf);
  const out: SnapshotDiffResult = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [ref, node] of b) {
    const old = a.get(ref);
    if (!old) {
      const p = parentOf.get(ref);
      out.added.push({ ref, role: node.role, ...(node.name ? { name: node.name } : {}), ...(p ? { parentRef: p } : {}) });
      continue;
    }
    const sa = signature(old);
    const sb = signature(node);
    if (JSON.stringify(sa) !== JSON.stringify(sb)) out.changed.push({ ref, before: sa, after: sb });
    else out.unchanged++;
  }
  for (const [ref, node] of a) {
    if (!b.has(ref)) out.removed.push({ ref, role: node.role, ...(node.name ? { name: node.name } : {}) });
  }
  return out;
}
