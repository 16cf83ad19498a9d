import { describe, expect, it } from 'vitest';
import { renderDiff, retryAfterMs } from '@ariadne/flows';

// Pure logic of the model planner: how long a rate-limited answer asks to wait, and how a
// snapshot diff reads to the model.

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-28T00:00:00Z');
  it('reads retry-after-ms first, then Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs({ 'retry-after': 'Sat, 28 Nov 2026 00:00:07 GMT' }, now)).toBe(7000);
    expect(retryAfterMs({ 'retry-after': 'Fri, 27 Nov 2026 23:00:00 GMT' }, now)).toBe(0);
  });
  it('answers null when the answer says nothing usable', () => {
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs(new Headers({}), now)).toBeNull();
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeNull();
  });
});

describe('renderDiff', () => {
  it('says what appeared, went and changed in words, with refs written apart from a snapshot\'s', () => {
    const lines = renderDiff({
      added: [{ ref: 'e20', role: 'listitem', text: 'Walk the dog', parentRef: 'e9' }, { ref: 'e21', role: 'generic', name: 'trash' }],
      removed: [{ ref: 'e5', role: 'button', name: 'Add' }],
      changed: [
        { ref: 'e6', role: 'status', summary: 'text "0 items" → "1 item"', before: {}, after: {} },
        { ref: 'e7', role: 'checkbox', name: 'Done', summary: 'checked false → true', before: { role: 'checkbox', name: 'Done', checked: false }, after: { role: 'checkbox', name: 'Done', checked: true } },
        // The focus moving alone is left out.
        { ref: 'e8', role: 'button', name: 'Save', summary: 'active (none) → true', before: { role: 'button', name: 'Save' }, after: { role: 'button', name: 'Save', active: true } },
      ],
    });
    expect(lines).toEqual([
      'changes:',
      '+ listitem: "Walk the dog" (ref e20) in ref e9',
      '+ generic "trash" (ref e21)',
      '- button "Add" (ref e5)',
      '~ status (ref e6): text "0 items" → "1 item"',
      '~ checkbox "Done" (ref e7): checked false → true',
    ]);
    expect(lines.join('\n')).not.toContain('[ref=');
  });
});
