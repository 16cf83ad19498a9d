import { describe, expect, it } from 'vitest';
import { diffInWords, diffSnapshots } from '../src/snapshot/diff.js';
import type { AriaNode } from '../src/snapshot/tree.js';

// Pure logic of snapshot diffs: identity is the ref; ref-less content (text, options)
// belongs to the nearest ancestor with a ref.

function page(opts: { status?: string; checked?: boolean; extra?: boolean; dropFirst?: boolean; option?: string } = {}): AriaNode[] {
  const items: AriaNode[] = [
    { role: 'listitem', ref: 'e4', children: ['Pen', { role: 'button', name: 'Remove', ref: 'e5' }] },
    { role: 'listitem', ref: 'e6', children: ['Ink', { role: 'button', name: 'Remove', ref: 'e7' }] },
  ];
  if (opts.dropFirst) items.shift();
  if (opts.extra) items.push({ role: 'listitem', ref: 'e9', children: ['Pad', { role: 'button', name: 'Remove', ref: 'e10' }] });
  return [{
    role: 'generic', ref: 'e1', children: [
      { role: 'status', ref: 'e2', text: opts.status ?? 'Cart: 2 items' },
      { role: 'list', ref: 'e3', children: items },
      { role: 'checkbox', name: 'Gift wrap', ref: 'e8', ...(opts.checked ? { checked: true } : {}) },
      { role: 'combobox', name: 'Size', ref: 'e11', children: [{ role: 'option', name: 'S', ...(opts.option === 'S' ? { selected: true } : {}) }, { role: 'option', name: 'M', ...(opts.option === 'M' ? { selected: true } : {}) }] },
    ],
  }];
}

describe('diffSnapshots', () => {
  it('reports nothing for identical snapshots, counting the unchanged refs', () => {
    const d = diffSnapshots(page(), page());
    expect(d).toEqual({ added: [], removed: [], changed: [], unchanged: 9 });
  });

  it('a text change is a change of the element that holds it', () => {
    const d = diffSnapshots(page(), page({ status: 'Cart: 3 items' }));
    expect(d.added).toEqual([]);
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([{ ref: 'e2', role: 'status', summary: 'text "Cart: 2 items" → "Cart: 3 items"', before: { role: 'status', ref: 'e2', text: 'Cart: 2 items' }, after: { role: 'status', ref: 'e2', text: 'Cart: 3 items' } }]);
    expect(d.unchanged).toBe(8);
  });

  it('state changes (checked) are changes', () => {
    const d = diffSnapshots(page(), page({ checked: true }));
    expect(d.changed).toEqual([{ ref: 'e8', role: 'checkbox', name: 'Gift wrap', summary: 'checked unset → true', before: { role: 'checkbox', name: 'Gift wrap', ref: 'e8' }, after: { role: 'checkbox', name: 'Gift wrap', ref: 'e8', checked: true } }]);
  });

  it('ref-less children (options) belong to their nearest ref ancestor', () => {
    const d = diffSnapshots(page({ option: 'S' }), page({ option: 'M' }));
    expect(d.changed.map((c) => c.ref)).toEqual(['e11']);
    expect(d.changed[0].after.content).toEqual([{ role: 'option', name: 'S' }, { role: 'option', name: 'M', selected: true }]);
    expect(d.changed[0].summary).toBe('now M (selected)');
  });

  it('added elements name their parent ref; removed elements are listed with role and name', () => {
    const d = diffSnapshots(page(), page({ extra: true, dropFirst: true }));
    expect(d.added).toEqual([
      { ref: 'e9', role: 'listitem', text: 'Pad', parentRef: 'e3' },
      { ref: 'e10', role: 'button', name: 'Remove', parentRef: 'e9' },
    ]);
    expect(d.removed).toEqual([
      { ref: 'e4', role: 'listitem' },
      { ref: 'e5', role: 'button', name: 'Remove' },
    ]);
    // The list's own facts did not change: its children have refs of their own.
    expect(d.changed).toEqual([]);
    expect(d.unchanged).toBe(7);
  });

  it('diffing against an empty snapshot adds everything', () => {
    const d = diffSnapshots([], page());
    expect(d.added).toHaveLength(9);
    expect(d.added[0]).toEqual({ ref: 'e1', role: 'generic', text: 'Cart: 2 items Pen Remove Ink Remove Gift wrap S M' });
    expect(diffSnapshots(page(), []).removed).toHaveLength(9);
  });

  it('an added status shows its text, and changes read as words, never JSON (issue 24 item 5)', () => {
    const before: AriaNode[] = [{ role: 'main', ref: 'e1', children: [{ role: 'button', name: 'Delete', ref: 'e2' }, { role: 'generic', ref: 'e3', children: ['Saved', { role: 'strong', children: ['never'] }] }] }];
    const after: AriaNode[] = [{ role: 'main', ref: 'e1', children: [
      { role: 'button', name: 'Delete', ref: 'e2' },
      { role: 'generic', ref: 'e3', children: ['Saved at', { role: 'strong', children: ['12:00'] }] },
      { role: 'status', ref: 'e55', children: ['Deleted email from Trista'] },
      { role: 'generic', ref: 'e56', inferredName: 'trash', cursor: 'pointer' },
      { role: 'paragraph', ref: 'e57', text: 'x'.repeat(500) },
    ] }];
    const d = diffSnapshots(before, after);
    expect(d.added[0]).toEqual({ ref: 'e55', role: 'status', text: 'Deleted email from Trista', parentRef: 'e1' });
    expect(d.added[1]).toMatchObject({ ref: 'e56', name: 'trash' });
    expect(d.added[2].text!.length).toBeLessThanOrEqual(121);
    expect(d.changed).toHaveLength(1);
    expect(d.changed[0].summary).toBe('text "Saved never" → "Saved at 12:00"');
    const lines = diffInWords(d);
    expect(lines).toContain('+ status: "Deleted email from Trista" [e55] in e1');
    expect(lines).toContain('~ generic [e3]: text "Saved never" → "Saved at 12:00"');
    for (const l of lines) expect(l).not.toMatch(/[{}]|content=/);
  });
});
