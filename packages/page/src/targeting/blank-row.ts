import { isElement, type AriaElement } from '../snapshot/tree.js';

// "the Date box in the empty row", "the Notes field in the new row", "in the blank line under
// the expense lines": a table's row for a new entry. It shows no text of its own (no cell with a
// name, no words), only fields, and at most a button or link to add it; one whose fields are all
// still empty first (a row being edited shows values), else one of fields only (the new row once
// a person has begun to fill it). Used by the matcher as a scope when the page itself does not
// show the words ("new", "empty").

/** Scope words that describe a row by being new or empty, a place after them being colour. */
export const BLANK_ROW_WORDS = /^(?:the\s+)?(?:(?:new|empty|blank|spare|unfilled)[- ]?)+(?:(?:row|line|entry|record)s?\b)?(?:\s+(?:under|below|beneath|after|at the (?:bottom|end) of)\b.*)?$/i;

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'listbox']);
const ACTION_ROLES = new Set(['button', 'link']);

/** Is this row one for a new entry: fields only (all empty, with `empty`), no words but an add control's? */
export function isBlankRow(row: AriaElement, empty = true): boolean {
  if (row.role !== 'row' && row.role !== 'listitem') return false;
  let fields = 0;
  const clean = (n: AriaElement): boolean => {
    if (FIELD_ROLES.has(n.role)) {
      fields++;
      if (!empty) return true;
      if (typeof n.value === 'string' && n.value.trim()) return false;
      // A text box's value is its text child; a native select's chosen option is marked selected.
      if (n.role === 'textbox' || n.role === 'searchbox' || n.role === 'spinbutton') return !(n.children ?? []).some((c) => typeof c === 'string' && c.trim());
      return !(n.children ?? []).some((c) => isElement(c) && c.role === 'option' && c.selected && (c.name ?? '').trim());
    }
    if (ACTION_ROLES.has(n.role)) return true;
    // A cell's name is its content's, a field's value included: words only when it holds no field.
    if (n.name && /[\p{L}\p{N}]/u.test(n.name) && !holdsField(n)) return false;
    for (const c of n.children ?? []) {
      if (typeof c === 'string') { if (/[\p{L}\p{N}]/u.test(c)) return false; } else if (!clean(c)) return false;
    }
    return true;
  };
  return clean({ ...row, role: 'generic', name: '' }) && fields > 0;
}

function holdsField(n: AriaElement): boolean {
  return (n.children ?? []).some((c) => isElement(c) && (FIELD_ROLES.has(c.role) || holdsField(c)));
}
