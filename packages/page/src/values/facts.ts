// Reads, in one round trip, what values/field.ts needs to know about a field (its type,
// format hints, lang, today, min/max, whether +/− controls sit next to it), and finds those
// controls. The functions run in the page: Playwright ships their source, so each is
// self-contained (no helpers from this module inside them).

import type { ElementHandle, Locator } from 'playwright-core';
import type { FieldFacts } from './field.js';

export async function readFieldFacts(loc: Locator, timeout: number): Promise<FieldFacts> {
  return loc.evaluate((el) => {
    const h = el as HTMLElement;
    const input = el instanceof HTMLInputElement ? el : null;
    const tag = el.tagName.toLowerCase();
    const role = (el.getAttribute('role') ?? '').toLowerCase();
    const editable = (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) ? !el.readOnly && !el.disabled : h.isContentEditable;
    const text = (n: Element | null | undefined) => (n?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
    const hints: string[] = [];
    const add = (s: string | null | undefined) => {
      const t = (s ?? '').replace(/\s+/g, ' ').trim();
      if (t && t.length <= 200 && !hints.includes(t)) hints.push(t);
    };
    add(el.getAttribute('aria-label'));
    add(el.getAttribute('title'));
    for (const id of (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)) add(text(document.getElementById(id)));
    if (input?.labels) for (const l of input.labels) add(text(l));
    // Help text beside the field: its siblings and its parent's own short text (a label without for).
    // (Children by selector: a form's `children` can be a field named "children".)
    const FIELDS = 'input:not([type=hidden]), select, textarea, [role=spinbutton], [role=textbox], [contenteditable=""], [contenteditable=true]';
    const kids = (n: Element) => Array.from(n.querySelectorAll(':scope > *'));
    const parent = el.parentElement;
    if (parent) {
      // Never text that belongs to another field (a sibling holding a field of its own).
      const own = (sib: Element) => !sib.contains(el) && !sib.matches(FIELDS) && !sib.querySelector(FIELDS);
      for (const sib of kids(parent)) if (own(sib)) add(text(sib));
      const grand = parent.parentElement;
      if (grand && (grand.textContent ?? '').length <= 300) for (const sib of kids(grand)) if (own(sib)) add(text(sib));
    }
    // A datepicker's own format: jQuery UI keeps it in its instance, bootstrap-datepicker in data-date-format.
    let picker: { format: string; dialect: 'jquery-ui' | 'bootstrap' } | null | undefined;
    const w = window as unknown as { jQuery?: ((e: Element) => { datepicker?: (o: string, k: string) => unknown }) };
    const cls = typeof h.className === 'string' ? h.className : '';
    if (/\bhasDatepicker\b/.test(cls) && w.jQuery) {
      try {
        const f = w.jQuery(el).datepicker?.('option', 'dateFormat');
        if (typeof f === 'string') picker = { format: f, dialect: 'jquery-ui' };
      } catch { /* not jQuery UI */ }
    }
    const dataFormat = el.getAttribute('data-date-format') ?? el.closest('[data-date-format]')?.getAttribute('data-date-format');
    if (!picker && dataFormat) picker = { format: dataFormat, dialect: 'bootstrap' };
    const now = new Date();
    const value = input || el instanceof HTMLTextAreaElement ? (el as HTMLInputElement).value : el.getAttribute('aria-valuenow') ?? text(el);
    return {
      tag,
      type: input ? input.type : '',
      role,
      editable,
      value,
      placeholder: el.getAttribute('placeholder') ?? '',
      hints,
      ...(picker !== undefined ? { picker } : {}),
      datepicker: /\b(?:hasDatepicker|datepicker|date-?picker)\b/i.test(cls),
      lang: (el.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.lang ?? '').trim(),
      today: { y: now.getFullYear(), m: now.getMonth() + 1, d: now.getDate() },
      min: input ? input.min : el.getAttribute('aria-valuemin') ?? undefined,
      max: input ? input.max : el.getAttribute('aria-valuemax') ?? undefined,
      inputMode: el.getAttribute('inputmode') ?? undefined,
      steppers: false,
    } as FieldFacts;
  }, undefined, { timeout });
}

/**
 * The field's own up and down controls: the nearest ancestor (up to four levels) holding
 * exactly one control that reads as "up" (+, ▲, a class or label with up/plus/increase) and
 * one that reads as "down". Null when there are none, or several (two steppers in one row).
 */
export async function findSteppers(loc: Locator, timeout: number): Promise<{ up: ElementHandle; down: ElementHandle } | null> {
  const handle = await loc.evaluateHandle((el) => {
    const words = (c: Element) => `${typeof (c as HTMLElement).className === 'string' ? (c as HTMLElement).className : ''} ${c.getAttribute('aria-label') ?? ''} ${c.getAttribute('title') ?? ''} ${c.getAttribute('data-action') ?? ''}`.toLowerCase().split(/[^a-z]+/);
    const kind = (c: Element): 'up' | 'down' | null => {
      const t = (c.textContent ?? '').trim();
      const w = new Set([...words(c), ...[...c.querySelectorAll('*')].slice(0, 5).flatMap(words)]);
      if (/^(?:\+|＋|▲|▴|⬆|↑|˄|⌃|⏶)$/.test(t) || ['up', 'plus', 'increase', 'increment', 'incr', 'inc'].some((x) => w.has(x))) return 'up';
      if (/^(?:-|−|–|－|▼|▾|⬇|↓|˅|⌄|⏷)$/.test(t) || ['down', 'minus', 'decrease', 'decrement', 'decr', 'dec', 'subtract'].some((x) => w.has(x))) return 'down';
      return null;
    };
    const clickable = (c: Element) => c !== el && !c.contains(el) && (c.matches('button, a, [role=button], input[type=button], input[type=submit]') || getComputedStyle(c).cursor === 'pointer');
    let box: Element | null = el.parentElement;
    for (let depth = 0; box && depth < 4; depth++, box = box.parentElement) {
      const found = [...box.querySelectorAll('*')].filter(clickable).filter((c) => !(c.parentElement && clickable(c.parentElement) && box!.contains(c.parentElement) && c.parentElement !== box));
      const ups = found.filter((c) => kind(c) === 'up'), downs = found.filter((c) => kind(c) === 'down');
      if (ups.length > 1 || downs.length > 1) return null;
      // Another field in the same box: its steppers could be these.
      const fields = box.querySelectorAll('input:not([type=hidden]):not([type=button]):not([type=submit]), [role=spinbutton], select, textarea');
      if (fields.length > 1) return null;
      if (ups.length === 1 && downs.length === 1) return { up: ups[0], down: downs[0] };
    }
    return null;
  }, undefined, { timeout });
  const up = await handle.getProperty('up').then((p) => p.asElement()).catch(() => null);
  const down = await handle.getProperty('down').then((p) => p.asElement()).catch(() => null);
  await handle.dispose().catch(() => {});
  return up && down ? { up: up as ElementHandle, down: down as ElementHandle } : null;
}

/** The field's value as a number (input value, aria-valuenow, else its text); null when not a number. */
export async function readFieldNumber(loc: Locator): Promise<number | null> {
  const v = await loc.evaluate((el) => (el instanceof HTMLInputElement ? el.value : el.getAttribute('aria-valuenow') ?? (el.textContent ?? '').trim()), undefined, { timeout: 1000 }).catch(() => null);
  if (v === null || !/^\s*[+-]?\d+(?:\.\d+)?\s*$/.test(v)) return null;
  return Number(v);
}
