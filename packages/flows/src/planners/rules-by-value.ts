import { flattenTree, offered, type AriaNode, type Flat } from '@ariadne/page';

// A step worded by its purpose, that names a value the page offers: "I want to be paid by
// cheque" (the one radio named Cheque), "Charge this claim to the Finance department" (the one
// list offering Finance, its label "Department" in the words too), "Book the claim against cost
// centre 4410" (the field labelled Cost Centre, the value right after its label). Read only when
// no rule understood the step, and only when exactly one control fits: a value two controls
// offer, or a sentence naming two values, is no answer.

export type ValueChoice =
  | { ok: true; kind: 'select'; ref: string; value: string; label: string }
  | { ok: true; kind: 'radio'; ref: string; value: string; label: string }
  | { ok: true; kind: 'fill'; ref: string; value: string; label: string }
  | { ok: false; why: string };

const words = (s: string) => ` ${s.toLowerCase().replace(/[^\p{L}\p{N}@.]+/gu, ' ').replace(/\.(?=\s|$)/g, ' ').replace(/\s+/g, ' ').trim()} `;
// A list's prompt or a catch-all is never the value a sentence means.
const PROMPT = /^(?:-+.*|.*-+|select\b.*|choose\b.*|please\b.*|pick\b.*|none|n\/a|other|all|any|yes|no|on|off|default)$/i;
const LIST_ROLES = new Set(['combobox', 'listbox']);
const FIELD_ROLES = new Set(['textbox', 'spinbutton', 'searchbox']);

/** Does the sentence say this text as whole words? */
function says(sentence: string, text: string): boolean {
  const t = words(text).trim();
  return t.length >= 3 && !PROMPT.test(text.trim()) && sentence.includes(` ${t} `);
}

/** A label's own words (four letters or more) said in the sentence, by their first five letters. */
function labelSaid(sentence: string, label: string): boolean {
  const stems = new Set(sentence.trim().split(' ').map((w) => w.slice(0, 5)));
  const own = words(label).trim().split(' ').filter((w) => w.length >= 4);
  return own.length > 0 && own.every((w) => stems.has(w.slice(0, 5)));
}

export function choiceInSentence(tree: AriaNode[], sentence: string): ValueChoice {
  const s = words(sentence);
  const flat: Flat[] = flattenTree(tree);
  const found: Extract<ValueChoice, { ok: true }>[] = [];
  for (const f of flat) {
    const label = f.name || f.adjacent || '';
    if (LIST_ROLES.has(f.node.role)) {
      const values = offered(f.node).filter((o) => says(s, o));
      // The value it already shows is no change to make.
      for (const value of values) if ((f.node.value ?? '') !== value) found.push({ ok: true, kind: 'select', ref: f.ref, value, label });
    } else if (f.node.role === 'radio' && !f.node.checked && label && says(s, label)) {
      found.push({ ok: true, kind: 'radio', ref: f.ref, value: label, label });
    } else if (FIELD_ROLES.has(f.node.role) && label && words(label).trim().length >= 5) {
      // "cost centre 4410": the label as whole words, then a value right after it.
      const at = s.indexOf(words(label));
      const rest = at >= 0 ? s.slice(at + words(label).length - 1) : '';
      const value = /^ ((?:\d[\d.,/:-]*)|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+)(?= )/u.exec(rest)?.[1];
      if (value) found.push({ ok: true, kind: 'fill', ref: f.ref, value, label });
    }
  }
  if (!found.length) return { ok: false, why: 'no list, radio or labelled field on the page offers a value these words name' };
  const controls = new Set(found.map((c) => c.ref));
  if (controls.size === 1 && found.length === 1) return found[0];
  // Several: the one whose label the words also say ("the Finance department").
  const labelled = found.filter((c) => c.kind === 'fill' || labelSaid(s, c.label));
  if (labelled.length === 1) return labelled[0];
  return { ok: false, why: `${found.length} choices fit these words (${found.slice(0, 4).map((c) => `"${c.value}"${c.label ? ` in "${c.label}"` : ''}`).join(', ')}); say which control` };
}
