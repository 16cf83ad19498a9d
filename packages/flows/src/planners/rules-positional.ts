import type { AriaNode, AriaElement } from '@ariadne/page';
import type { Side } from './rules-wording.js';

// "The checkbox before 'Remember me'", "the field to the right of 'kg'": the control right
// beside a text on the side the words say, in reading order (the snapshot's order). The page
// is read as one line of texts and controls; the control must be the text's very neighbour on
// that side, inside the same row/item (a table row, a list item, a card), never across one.
// Several such controls (the text shown twice, each with its box) are refused, not guessed.
// Pure: unit-tested on plain trees.

const KIND_ROLES: Record<string, string[]> = {
  checkbox: ['checkbox', 'switch'], tickbox: ['checkbox', 'switch'], box: ['checkbox', 'switch'],
  radio: ['radio'], radiobutton: ['radio'], switch: ['switch', 'checkbox'], toggle: ['switch', 'checkbox'],
  field: ['textbox', 'searchbox', 'combobox', 'spinbutton'], input: ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  textbox: ['textbox', 'searchbox'], textfield: ['textbox', 'searchbox'],
  dropdown: ['combobox', 'listbox'], 'drop-down': ['combobox', 'listbox'], select: ['combobox', 'listbox'],
  button: ['button'], link: ['link'],
};

/** Roles that are controls in the reading line (anything else with text is text). */
const CONTROLS = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'menuitem', 'tab', 'option', 'treeitem', 'menuitemcheckbox', 'menuitemradio']);
/** Containers a text and its control share: adjacency never crosses one. */
const UNITS = new Set(['row', 'listitem', 'article', 'option', 'treeitem', 'dialog', 'alertdialog', 'group', 'radiogroup', 'form', 'region', 'navigation', 'main', 'banner', 'contentinfo', 'complementary', 'table', 'list', 'cell', 'gridcell']);

// `row`: the table row a cell unit sits in (a label in the cell beside its box is the same line).
type Item = { text: string; unit: AriaElement | null; row?: AriaElement | null } | { ref: string; role: string; name: string; unit: AriaElement | null; row?: AriaElement | null };

function textOf(n: AriaNode): string {
  if (typeof n === 'string') return n;
  return [n.name ?? '', typeof n.text === 'string' ? n.text : '', ...(n.children ?? []).map(textOf)].join(' ');
}

function hasControl(n: AriaNode): boolean {
  return typeof n !== 'string' && ((CONTROLS.has(n.role) && Boolean(n.ref)) || (n.children ?? []).some(hasControl));
}

/** The page as one reading line of texts and controls, each with its nearest row/item. */
export function readingLine(tree: AriaNode[]): Item[] {
  const out: Item[] = [];
  const walk = (nodes: AriaNode[], unit: AriaElement | null, row: AriaElement | null) => {
    for (const n of nodes) {
      const cellRow = unit && ['cell', 'gridcell'].includes(unit.role) ? row : null;
      if (typeof n === 'string') {
        const t = n.trim();
        if (t) out.push({ text: t, unit, row: cellRow });
        continue;
      }
      if (CONTROLS.has(n.role) && n.ref) {
        out.push({ ref: n.ref, role: n.role, name: n.name || String(n.inferredName ?? ''), unit, row: cellRow });
        continue;
      }
      const u = UNITS.has(n.role) ? n : unit;
      const r = n.role === 'row' ? n : row;
      const uRow = ['cell', 'gridcell'].includes(u?.role ?? '') ? r : null;
      // A text element (a label, a paragraph, a cell's text) is one text; one that holds controls is read through.
      if (!hasControl(n)) {
        const t = textOf(n).replace(/\s+/g, ' ').trim();
        if (t) out.push({ text: t, unit: u, row: uRow });
        continue;
      }
      if (n.name && !['generic', 'group', 'radiogroup', 'list', 'row', 'listitem', 'cell', 'gridcell', 'form', 'region', 'article'].includes(n.role)) out.push({ text: n.name, unit: u, row: uRow });
      if (typeof n.text === 'string' && n.text.trim()) out.push({ text: n.text.trim(), unit: u, row: uRow });
      walk(n.children ?? [], u, r);
    }
  };
  walk(tree, null, null);
  return out;
}

// A sentence's full stop is not part of what a person quotes of it ("… on company business").
const bare = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase().replace(/[\s.!?;,:*]+$/, '');

export type Positional = { ok: true; ref: string; role: string; name: string } | { ok: false; code: 'target_not_found' | 'ambiguous_target'; message: string };

/** The control of `kind` right `side` the text (`text` shown as a whole text), or why there is none. */
export function controlBesideText(tree: AriaNode[], kind: string, text: string, side: Side): Positional {
  const roles = KIND_ROLES[kind.replace(/\s+/g, '').toLowerCase()] ?? [kind];
  const line = readingLine(tree);
  const want = bare(text);
  const at = line.map((it, i) => ('text' in it && bare(it.text) === want ? i : -1)).filter((i) => i >= 0);
  const words = `the ${kind} ${side} "${text}"`;
  if (!at.length) return { ok: false, code: 'target_not_found', message: `${words}: no text on the page reads exactly "${text}".` };
  const hits = new Map<string, { role: string; name: string }>();
  for (const i of at) {
    const j = side === 'before' ? i - 1 : i + 1;
    const it = line[j];
    // The same unit, or two cells of one table row (a layout table: the box in one cell, its words in the next).
    const together = it && (it.unit === line[i].unit || (it.row && it.row === line[i].row));
    if (!it || !('ref' in it) || !together || !roles.includes(it.role)) continue;
    hits.set(it.ref, { role: it.role, name: it.name });
  }
  if (hits.size === 0) {
    const other = at.map((i) => line[side === 'before' ? i - 1 : i + 1]).find((it) => it && 'ref' in it);
    return { ok: false, code: 'target_not_found', message: `${words}: the text is there, but no ${kind} sits right ${side} it${other && 'ref' in other ? ` (a ${other.role}${other.name ? ` "${other.name}"` : ''} does)` : ''}.` };
  }
  if (hits.size > 1) return { ok: false, code: 'ambiguous_target', message: `${words}: ${hits.size} controls sit right ${side} a text reading "${text}" (${[...hits.keys()].join(', ')}); say which, e.g. "in the <row> row".` };
  const [ref, v] = [...hits.entries()][0];
  return { ok: true, ref, ...v };
}
