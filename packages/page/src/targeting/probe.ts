import type { Page } from 'playwright-core';
import type { Flat } from './tree-match.js';
import { EDITABLE } from './tree-match.js';

// Facts the accessibility tree does not carry, read from the page for the few candidates a
// step is about (never a page's worth): a field's kind (a textarea and a date input both read
// `textbox`) and whether an element sits in a floating box that is a dialog without ARIA.
// Pure reads: nothing here changes the page.

/** Fill in `kind` (multiline, date, password, text, ...) on the fields of the tree that lack it. */
export async function probeKinds(page: Page, flat: Flat[], limit = 40): Promise<void> {
  const fields = flat.filter((f) => EDITABLE.has(f.node.role) && !f.kind && !f.node.kind).slice(0, limit);
  await Promise.all(fields.map(async (f) => {
    const k = await page.locator(`aria-ref=${f.ref}`).evaluate((el: Element) => {
      const tag = el.tagName.toLowerCase();
      if (tag === 'textarea') return 'multiline';
      if ((el as HTMLElement).isContentEditable) return el.getAttribute('aria-multiline') === 'false' ? 'text' : 'multiline';
      if (tag === 'input') return ((el as HTMLInputElement).type || 'text').toLowerCase();
      if (el.getAttribute('aria-multiline') === 'true') return 'multiline';
      return 'text';
    }, undefined, { timeout: 1000 }).catch(() => undefined);
    if (k) f.kind = k;
  }));
}

/**
 * Which of these elements sit in a dialog: role=dialog/alertdialog, an open <dialog>,
 * aria-modal, or a dialog widget without ARIA — a floating box (position fixed, or absolute
 * above the page) with a title line and a close control, or a box whose class says dialog,
 * modal or popup (jQuery UI, Bootstrap 3). Open shadow roots are crossed.
 */
export async function inDialog(page: Page, refs: string[], kind: 'dialog' | 'menu' = 'dialog'): Promise<boolean[]> {
  return Promise.all(refs.map((ref) => page.locator(`aria-ref=${ref}`).evaluate((el: Element, menu: boolean) => {
    const up = (e: Element): Element | null => e.parentElement ?? (((e.getRootNode() as ShadowRoot).host as Element | undefined) ?? null);
    for (let a: Element | null = el; a && a !== document.body && a !== document.documentElement; a = up(a)) {
      const role = a.getAttribute('role');
      if (role === 'dialog' || role === 'alertdialog' || a.getAttribute('aria-modal') === 'true') return true;
      if (a.tagName === 'DIALOG' && (a as HTMLDialogElement).open) return true;
      const cls = typeof a.className === 'string' ? a.className : '';
      if (/(?:^|[\s_-])(?:dialog|modal|popup|pop-up|lightbox)(?:$|[\s_-])/i.test(cls) && !/(?:backdrop|overlay-bg)/i.test(cls)) return true;
      // A menu without ARIA: a box whose class says menu or dropdown (Bootstrap's .dropdown-menu).
      if (menu && /(?:^|[\s_-])(?:menu|dropdown|popover|overlay|flyout)(?:$|[\s_-])/i.test(cls)) return true;
      const st = getComputedStyle(a);
      if (st.position === 'fixed' || (st.position === 'absolute' && (Number(st.zIndex) > 0 || menu))) {
        const r = a.getBoundingClientRect();
        // A box, not a toolbar or a badge: room for a title and a body (a menu: two items).
        if (r.width >= (menu ? 80 : 120) && r.height >= (menu ? 40 : 60)) return true;
      }
    }
    return false;
  }, kind === 'menu', { timeout: 1000 }).catch(() => false)));
}
