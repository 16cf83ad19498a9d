import { describe, expect, it } from 'vitest';
import { iconWord } from '../packages/page/src/bridge/injected/surface-names.js';
import { applySurface, displayName, renderSnapshot, type AriaNode } from '@ariadne/page';

// Issue 24 §1, pure parts: the word an icon class or sprite id stands for (icon-set prefixes,
// style and size tokens and variant suffixes taken off), displayName, and how the edits of the
// in-page pass land in the tree and its renderings. The in-page pass itself is tested against
// real pages (surface-icons, surface-fields, surface-unchanged).

describe('iconWord', () => {
  it.each([
    ['trash', 'trash'],
    ['fa-star', 'star'],
    ['fa-trash-o', 'trash'],
    ['fa-heart-outline', 'heart'],
    ['bi-x-lg', 'close'],
    ['bi-star-fill', 'star'],
    ['glyphicon-remove', 'remove'],
    ['icon-heart', 'heart'],
    ['icon-trash', 'trash'],
    ['mdi-delete-outline', 'delete'],
    ['fa-times', 'close'],
    ['fa-floppy-o', 'save'],
    ['mail-row__star', 'star'],
    ['trashIcon', 'trash'],
    ['arrow-left', 'arrow left'],
    ['act-del', 'delete'],
  ])('%s → %s', (token, word) => {
    expect(iconWord(token)).toBe(word);
  });

  it.each(['fa', 'fa-solid', 'fa-lg', 'fa-2x', 'bi', 'glyphicon', 'icon', 'btn', 'btn-primary', 'pull-right', 'active', 'css-1x2y3z4', 'js-row-123456', 'tb'])('%s says nothing', (token) => {
    expect(iconWord(token)).toBeNull();
  });
});

describe('edits in the tree and its renderings', () => {
  const tree = (): AriaNode[] => [{ role: 'generic', ref: 'e1', children: [
    { role: 'generic', ref: 'e2', cursor: 'pointer' },
    { role: 'paragraph', ref: 'e3', text: 'Accept the terms now.' },
    { role: 'textbox', ref: 'e4' },
  ] }];
  const result = {
    edits: { e2: { inferredName: 'trash', inferredFrom: 'class' }, e4: { inferredName: 'Birthday', inferredFrom: 'label', kind: 'date' } },
    children: [{ parent: 'e3', children: ['Accept the', { role: 'generic', ref: 'e1000001', text: 'terms', cursor: 'pointer' as const }, 'now.'] }],
  };

  it('names, kinds and split prose render in yaml, text and json; displayName reads the inferred name', () => {
    const t = applySurface(tree(), result);
    const yaml = renderSnapshot(t, { format: 'yaml', maxChars: 10_000 }).output as string;
    expect(yaml).toContain('- generic "trash" [inferred=class] [ref=e2] [cursor=pointer]');
    expect(yaml).toContain('- textbox "Birthday" [inferred=label] [type=date] [ref=e4]');
    expect(yaml).toMatch(/- paragraph \[ref=e3\]:\n\s+- text: Accept the\n\s+- generic \[ref=e1000001\] \[cursor=pointer\]: terms\n\s+- text: now\./);
    const text = renderSnapshot(t, { format: 'text', maxChars: 10_000 }).output as string;
    expect(text).toContain('generic "trash" [inferred=class] [e2] [cursor=pointer]');
    expect(text).toContain('textbox "Birthday" [inferred=label] [type=date] [e4]');
    const json = JSON.stringify(renderSnapshot(t, { format: 'json', maxChars: 10_000 }).output);
    expect(json).toContain('{"role":"generic","inferredName":"trash","inferredFrom":"class","ref":"e2","cursor":"pointer"}');
    const e2 = (t[0] as { children: AriaNode[] }).children[0] as { role: string; name?: string; inferredName?: string };
    expect(displayName(e2)).toBe('trash');
    expect(e2.name).toBeUndefined();
    expect(displayName({ role: 'button', name: 'Save', inferredName: 'floppy' })).toBe('Save');
  });

  it('no edits: the same tree object back', () => {
    const t = tree();
    expect(applySurface(t, null)).toBe(t);
    expect(applySurface(t, { edits: {}, children: [] })).toBe(t);
  });
});
