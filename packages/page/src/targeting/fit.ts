import type { Locator, Page } from 'playwright-core';
import type { TargetAction } from './spec.js';
import { readSwitch } from '../bridge/injected/switch-state.js';

// The prove stage for locator rungs: can the one element a rung found take the action (a
// field for fill, a checkbox for check, something clickable for click — never prose)? Read
// in the page on that element only; a click listener is asked of the browser (CDP) only for
// static text with the exact words.

/** Can this element take the action? Checked in the page on the one element a locator rung found. */
export async function fitFor(loc: Locator, action: TargetAction, quoted: boolean): Promise<{ ok: boolean; note: string; role?: string }> {
  const fit = await fitCheck(loc, action, quoted);
  const role = await loc.evaluate((el: Element) => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(/\s+/)[0];
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? 'text').toLowerCase();
    if (tag === 'a') return el.hasAttribute('href') ? 'link' : 'generic';
    if (tag === 'input') return ({ checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', range: 'slider', number: 'spinbutton', search: 'searchbox' } as Record<string, string>)[type] ?? 'textbox';
    return ({ button: 'button', select: 'combobox', textarea: 'textbox', p: 'paragraph', li: 'listitem', label: 'label', summary: 'button', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', img: 'img' } as Record<string, string>)[tag] ?? 'generic';
  }, undefined, { timeout: 1000 }).catch(() => undefined);
  // A switch drawn without ARIA (a pill with a knob, bridge/injected/switch-state.ts) takes check/uncheck.
  if ((action === 'check' || action === 'uncheck') && !fit.ok && (role === 'generic' || role === 'button')) {
    const drawn = await loc.evaluate(readSwitch, undefined, { timeout: 1000 }).catch(() => null);
    if (drawn) return { ok: true, note: `a switch drawn without ARIA (${drawn.state === 'unknown' ? 'state unknown' : drawn.state})`, role: 'switch' };
  }
  return { ...fit, ...(role ? { role } : {}) };
}

async function fitCheck(loc: Locator, action: TargetAction, quoted: boolean): Promise<{ ok: boolean; note: string }> {
  return loc.evaluate((el: Element, a: { action: string; quoted: boolean }) => {
    const e = el as HTMLElement;
    const tag = e.tagName.toLowerCase();
    const role = e.getAttribute('role') ?? '';
    const type = (e.getAttribute('type') ?? '').toLowerCase();
    const editable = (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'hidden', 'range', 'color'].includes(type)) || tag === 'textarea' || e.isContentEditable || ['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(role);
    const checkable = (tag === 'input' && (type === 'checkbox' || type === 'radio')) || ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role);
    const labelControl = tag === 'label' ? (e as HTMLLabelElement).control : null;
    switch (a.action) {
      case 'fill': case 'type': case 'clear': {
        // A range input takes a value by fill (only fill: typing into it means nothing).
        if (a.action === 'fill' && tag === 'input' && type === 'range') return { ok: true, note: 'a range input (set to the value)' };
        return { ok: editable, note: editable ? 'editable' : `a <${tag}> is not editable` };
      }
      case 'check': case 'uncheck': {
        const ok = checkable || Boolean(labelControl && ((labelControl as HTMLInputElement).type === 'checkbox' || (labelControl as HTMLInputElement).type === 'radio'));
        return { ok, note: ok ? 'checkable' : `a <${tag}> is not a checkbox, radio or switch` };
      }
      case 'select': {
        const ok = tag === 'select' || ['listbox', 'combobox'].includes(role);
        return { ok, note: ok ? 'selectable' : `a <${tag}> is not a list or dropdown` };
      }
      case 'click': {
        const control = e.closest('a[href],button,input,select,textarea,summary,label,option,[role=button],[role=link],[role=tab],[role=menuitem],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem],[onclick],[tabindex]:not([tabindex="-1"])');
        if (control) return { ok: true, note: control === e ? 'interactive' : 'inside a control' };
        const handler = typeof (e as HTMLElement & { onclick?: unknown }).onclick === 'function';
        if (handler) return { ok: true, note: 'has a click handler' };
        if (getComputedStyle(e).cursor === 'pointer') {
          // Its own pointer, or an inherited one on something that is not prose (a sentence or a
          // paragraph inside a pointer-cursor container is still prose).
          const text = (e.textContent ?? '').replace(/\s+/g, ' ').trim();
          const prose = /^(?:p|h[1-6]|label|legend|caption|figcaption|blockquote)$/.test(tag) || text.length > 60 || /[.;!?]$/.test(text);
          const inherited = e.parentElement ? getComputedStyle(e.parentElement).cursor === 'pointer' : false;
          if (!prose || !inherited) return { ok: true, note: 'pointer cursor' };
        }
        if (a.quoted) return { ok: true, note: 'static text, quoted verbatim' };
        return { ok: false, note: `static <${tag}> text (no click handler, no pointer cursor)` };
      }
      default:
        return { ok: true, note: '' };
    }
  }, { action, quoted }, { timeout: 2000 }).catch(() => ({ ok: false, note: 'element went away' }));
}

/** fitFor, and for a click on static text with the exact words: a script listening for clicks on it. */
export async function fitOrListener(page: Page, loc: Locator, action: TargetAction, quoted: boolean): Promise<{ ok: boolean; note: string; role?: string }> {
  const fit = await fitFor(loc, action, quoted);
  if (fit.ok || action !== 'click' || !fit.note.startsWith('static')) return fit;
  const on = await clickListenerOn(page, loc);
  return on ? { ...fit, ok: true, note: on } : fit;
}


/**
 * Does a script listen for clicks on this element, or on its parent or grandparent (a list that
 * delegates to its items)? Listeners are invisible to the DOM, so this asks the browser
 * (CDP DOMDebugger.getEventListeners) — only for the one element an exact-text rung found,
 * never for a page's worth. Listeners on <body>, <html>, the document or the window (analytics,
 * global handlers) do not count: they would make every text clickable.
 */
async function clickListenerOn(page: Page, loc: Locator): Promise<string | null> {
  const key = `__ariadneListenerProbe${Math.random().toString(36).slice(2)}`;
  let cdp: Awaited<ReturnType<ReturnType<Page['context']>['newCDPSession']>> | null = null;
  try {
    const probe = await loc.evaluate((el: Element, k: string) => {
      const chain: Element[] = [];
      let up: Element | null = el;
      while (up && chain.length < 8 && up !== document.body && up !== document.documentElement) {
        chain.push(up);
        up = up.parentElement ?? (((up.getRootNode() as ShadowRoot).host as Element | undefined) ?? null);
      }
      (window as unknown as Record<string, unknown>)[k] = chain;
      // Evidence that a delegated listener means this element: one of a row of look-alikes (same
      // tag and class: chips, options, tiles) with a short label. Prose never: a paragraph, a
      // heading, a label, a sentence.
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      const prose = /^(?:p|h[1-6]|label|legend|caption|figcaption|blockquote|dt|dd|th|td)$/i.test(el.tagName) || text.length > 40 || text.split(' ').length > 5 || /[.;:!?]$/.test(text);
      const sibs = el.parentElement ? [...el.parentElement.children].filter((c) => c !== el && c.tagName === el.tagName && c.className === el.className && (c.textContent ?? '').trim().length > 0 && (c.textContent ?? '').trim().length <= 40) : [];
      return { depth: chain.length, lookalikes: !prose && sibs.length >= 2 };
    }, key, { timeout: 1000 });
    cdp = await page.context().newCDPSession(page);
    const types = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
    for (let i = 0; i < probe.depth; i++) {
      // A listener on an ancestor counts only with evidence: the list that delegates to its items
      // (parent or grandparent) when this is one of a row of look-alikes. A far ancestor (a React
      // root) never does by itself: there a pointer cursor, a role, a tabindex or an onclick
      // attribute (checked before this probe) is the evidence.
      if (i > 0 && (!probe.lookalikes || i > 2)) break;
      const { result } = (await cdp.send('Runtime.evaluate', { expression: `window[${JSON.stringify(key)}][${i}]` })) as { result: { objectId?: string } };
      if (!result.objectId) continue;
      const { listeners } = (await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId, depth: 0 })) as { listeners: { type: string }[] };
      const hit = listeners.find((l) => types.has(l.type));
      if (hit) return i === 0 ? `a ${hit.type} listener on it` : `a ${hit.type} listener on an ancestor (${i} up), and it is one of a row of look-alikes`;
    }
    return null;
  } catch {
    return null;
  } finally {
    await page.evaluate((k: string) => { delete (window as unknown as Record<string, unknown>)[k]; }, key).catch(() => {});
    await cdp?.detach().catch(() => {});
  }
}

