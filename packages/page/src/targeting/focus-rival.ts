import type { DescribedTarget, TargetAction } from './spec.js';
import { EDITABLE, nameTier, type Flat, type TreeMatch } from './tree-match.js';

// "Click the pencil on Pay rent", then "fill the task text field": the click opened an inline
// editor (a field no label names, holding the item's text) and the words fit another field only
// loosely ("task" inside "Add a task…"). Which of the two is meant is not said: the match is
// refused as ambiguous, never the prompt field taken silently (a silent wrong seen on a
// web-components to-do list). The focus is no help there: inside a shadow root the tree does not
// mark it.

type Hit = Extract<TreeMatch, { kind: 'hit' }>;

const PROMPT = /^(?:add|new|create|write|type|enter|what|start)\b/i;

/** The unnamed field holding text (an inline editor) that competes with a loosely named one, if any. */
export function focusedRival(flat: Flat[], m: Hit, spec: DescribedTarget, action: TargetAction): Flat | null {
  if (!['fill', 'type', 'press', 'focus'].includes(action) || !EDITABLE.has(m.role)) return null;
  const ends = (t: string) => t.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/\s+/g, ' ');
  if (!spec.phrase || spec.quoted || nameTier(m.name, spec.phrase, false) === 0 || ends(m.name) === ends(spec.phrase)) return null;
  // Only a prompt for a new entry ("Add a task…", "New note", "What needs to be done?"): a field
  // named for what it creates, which the item's noun alone ("task") fits as well as the editor of
  // an item that exists. A field named for what it holds ("DD/MM/YYYY", "Check-in date") is not.
  if (!PROMPT.test(m.name.trim())) return null;
  const holdsText = (f: Flat) => (f.node.children ?? []).some((c) => typeof c === 'string' && c.trim()) || (typeof f.node.text === 'string' && f.node.text.trim() !== '');
  return flat.find((f) => f.ref !== m.ref && (f.node.role === 'textbox' || f.node.role === 'searchbox') && !f.node.name && !f.node.inferredName && (f.node.active === true || holdsText(f))) ?? null;
}

/** The two as an ambiguity the resolver reports (each with its ref). */
export function rivalAmbiguity(m: Hit, rival: Flat): Extract<TreeMatch, { kind: 'ambiguous' }> {
  return {
    kind: 'ambiguous',
    count: 2,
    why: `"${m.name}" fits the words only in part, and a field no label names (${rival.node.role}${rival.name ? ` showing "${rival.name}"` : ''}) may be the one meant`,
    candidates: [
      { ref: m.ref, role: m.role, name: m.name, context: 'named in part by the words' },
      { ref: rival.ref, role: rival.node.role, name: rival.name, context: 'unnamed, holding text (an inline editor?)' },
    ],
  };
}
