import type { ElementHandle, Page } from 'playwright-core';

// Search behind disclosure (issue 25 §4): a step's target is not shown, but the page hides it
// behind something a person would open — a tab, an accordion header, a tree node's caret, a
// <details> summary, a "More" button, a collapsed row. Two ways to find the opener, both
// bounded by the caller (≤ 12 openings, ≤ 5 s in all):
//  - guided: the exact words are in the document but not rendered; the opener of the outermost
//    hidden box around them is clicked (its aria-controls / href="#id" / data-target owner, the
//    <summary> of a closed <details>, else the visible element just before the box: a header,
//    a caret, a "More" button). One level per call: a tree opens node by node.
//  - blind: the words are nowhere in the document (content rendered on open): the next closed
//    tab or aria-expanded=false control whose panel is empty or absent.
// Only ever an opener; the caller acts on the target only when its exact words show up.

export interface Opening {
  /** How a report names it: `tab "Downloads"`, `"src"`, `details "Advanced options"`. */
  label: string;
}

/** The words as the page would show them: spaces folded, case and trailing punctuation aside. */
function key(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.!?;,:]+$/, '');
}

/** Open one level towards a hidden element whose whole text (or label) is one of the phrases. */
export async function openTowards(page: Page, phrases: string[], skip: string[]): Promise<Opening | null> {
  const want = [...new Set(phrases.map(key).filter(Boolean))];
  if (!want.length) return null;
  const handle = await page.evaluateHandle(({ want, skip }) => {
    const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.!?;,:]+$/, '');
    const shown = (el: Element) => (el as HTMLElement).checkVisibility ? (el as HTMLElement).checkVisibility({ visibilityProperty: true } as never) : (el as HTMLElement).offsetParent !== null;
    const up = (e: Element): Element | null => e.parentElement ?? (((e.getRootNode() as ShadowRoot).host as Element | undefined) ?? null);
    const all: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        all.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    const says = (el: Element) => {
      if (/^(?:SCRIPT|STYLE|TEMPLATE|NOSCRIPT|OPTION|HEAD|TITLE)$/.test(el.tagName) || el.closest('select,template')) return false;
      const own = [el.getAttribute('aria-label'), el.getAttribute('title'), el.getAttribute('alt'), (el as HTMLInputElement).type === 'submit' || (el as HTMLInputElement).type === 'button' ? (el as HTMLInputElement).value : null];
      if (own.some((t) => t && want.includes(norm(t)))) return true;
      const t = norm(el.textContent);
      // The innermost element with those words.
      return want.includes(t) && ![...el.children].some((c) => norm(c.textContent) === t);
    };
    const clickable = (el: Element) => {
      const h = el as HTMLElement;
      return el.matches('a[href],button,summary,[role=button],[role=tab],[role=treeitem],[role=menuitem],[tabindex]:not([tabindex="-1"]),[onclick],[aria-expanded],[data-toggle],[data-bs-toggle]') || getComputedStyle(h).cursor === 'pointer';
    };
    // A header, a caret, a "More" button: short words, never prose, never a link that leaves the page.
    const toggleLike = (el: Element) => {
      if (el.hasAttribute('aria-expanded') || el.tagName === 'SUMMARY') return true;
      const href = el.closest('a[href]')?.getAttribute('href') ?? null;
      if (href !== null && !/^(?:#|javascript:)/i.test(href)) return false;
      if (/^(?:P|LABEL|LI|TD|TH|SECTION|ARTICLE|FORM|TABLE|UL|OL)$/.test(el.tagName)) return false;
      const t = norm(el.textContent);
      return t.length <= 40 && t.split(' ').length <= 5 && !/[.;!?]$/.test((el.textContent ?? '').trim());
    };
    const nameOf = (el: Element) => (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
    for (const target of all) {
      if (!says(target) || shown(target)) continue;
      // The outermost hidden box around the target: its parent is shown.
      let box: Element | null = target;
      while (box && up(box) && !shown(up(box)!)) box = up(box);
      const parent = box ? up(box) : null;
      // A hidden control on its own (shown on hover, or never) is not content behind a disclosure.
      if (!box || !parent || (box === target && !(parent.tagName === 'DETAILS' && !(parent as HTMLDetailsElement).open))) continue;
      let opener: Element | null = null;
      let how = '';
      if (parent.tagName === 'DETAILS' && !(parent as HTMLDetailsElement).open) {
        opener = parent.querySelector(':scope > summary');
        how = 'details';
      }
      const id = box.id || (box.querySelector('[id]') && box.children.length === 1 ? box.children[0].id : '');
      if (!opener && box.id) {
        const root = box.getRootNode() as Document | ShadowRoot;
        const esc = CSS.escape(box.id);
        const cands = [...root.querySelectorAll(`[aria-controls~="${esc}"],a[href="#${esc}"],[data-target="#${esc}"],[data-bs-target="#${esc}"]`)].filter(shown);
        if (cands.length) {
          opener = cands[0];
          how = cands[0].getAttribute('role') === 'tab' || cands[0].closest('[role=tablist],ul,ol,nav') ? 'tab' : 'control';
        }
      }
      void id;
      if (!opener) {
        // The visible element just before the box (an accordion header, a tree caret, a More button),
        // or the one before its wrapper.
        for (let s = box.previousElementSibling; s; s = s.previousElementSibling) {
          if (!shown(s)) continue;
          const c = clickable(s) ? s : [...s.querySelectorAll('*')].find((x) => shown(x) && clickable(x) && norm(x.textContent).length > 0) ?? null;
          if (c && toggleLike(c)) opener = c;
          break;
        }
        how = 'section';
      }
      if (!opener || !shown(opener) || skip.includes(norm(nameOf(opener)))) continue;
      return { el: opener, label: how === 'tab' ? `tab "${nameOf(opener)}"` : how === 'details' ? `details "${nameOf(opener)}"` : `"${nameOf(opener)}"` };
    }
    return null;
  }, { want, skip: skip.map(key) }).catch(() => null);
  return clickOpener(page, handle);
}

/**
 * The next closed tab or collapsed control (aria-expanded=false) whose panel is empty or absent,
 * i.e. content the page renders only once opened; in document order, skipping those opened.
 */
export async function openBlind(page: Page, skip: string[]): Promise<Opening | null> {
  const handle = await page.evaluateHandle((skip: string[]) => {
    const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.!?;,:]+$/, '');
    const shown = (el: Element) => ((el as HTMLElement).checkVisibility ? (el as HTMLElement).checkVisibility() : true);
    const found: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      found.push(...root.querySelectorAll('[role=tab][aria-selected=false],[aria-expanded=false]'));
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(document);
    for (const el of found) {
      if (!shown(el) || (el as HTMLButtonElement).disabled) continue;
      const name = (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
      if (!name || skip.includes(norm(name))) continue;
      const ids = (el.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean);
      const root = el.getRootNode() as Document | ShadowRoot;
      const panels = ids.map((i) => (root as Document).getElementById?.(i) ?? root.querySelector(`#${CSS.escape(i)}`));
      // Content rendered on open: the control names its panel, and the panel is absent or empty.
      if (!panels.length || panels.some((p) => p && (p.textContent ?? '').trim().length > 0)) continue;
      return { el, label: el.getAttribute('role') === 'tab' ? `tab "${name}"` : `"${name}"` };
    }
    return null;
  }, skip.map(key)).catch(() => null);
  return clickOpener(page, handle);
}

async function clickOpener(page: Page, handle: Awaited<ReturnType<Page['evaluateHandle']>> | null): Promise<Opening | null> {
  if (!handle) return null;
  try {
    const label = (await handle.evaluate((r: unknown) => (r ? (r as { label: string }).label : null)).catch(() => null)) as string | null;
    if (!label) return null;
    const el = (await handle.evaluateHandle((r: unknown) => (r as { el: Element }).el)).asElement() as ElementHandle<Element> | null;
    if (!el) return null;
    try {
      const ok = await el.click({ timeout: 1500 }).then(() => true, () => false);
      if (!ok) return null;
    } finally {
      await el.dispose().catch(() => {});
    }
    await page.waitForTimeout(120);
    return { label };
  } finally {
    await handle.dispose().catch(() => {});
  }
}

/**
 * A row's own menu (issue 25): "Reset Lee Chen's password from the ⋯ menu", "Archive Chris's
 * row" where Archive sits only inside that row's ⋯ / kebab / "More actions" menu. Opens, in the
 * one row (or card, or item) whose own text is exactly the scope, the control that hides the
 * target: the opener of the hidden box whose whole text is the target's words; else, when the
 * menu's items are rendered only on open, the row's only overflow control (⋯, ⋮, …, "More",
 * "Actions", aria-haspopup, a kebab/ellipsis/dots icon). Never in another row: two rows showing
 * the scope, or two overflow controls in the row, open nothing.
 */
export async function openRowMenu(page: Page, phrases: string[], scope: string, skip: string[]): Promise<Opening | null> {
  const want = [...new Set(phrases.map(key).filter(Boolean))];
  const sc = key(scope);
  if (!want.length || !sc) return null;
  const handle = await page.evaluateHandle(({ want, sc, skip }) => {
    const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.!?;,:]+$/, '');
    const shown = (el: Element) => (el as HTMLElement).checkVisibility ? (el as HTMLElement).checkVisibility({ visibilityProperty: true } as never) : (el as HTMLElement).offsetParent !== null;
    const up = (e: Element): Element | null => e.parentElement ?? (((e.getRootNode() as ShadowRoot).host as Element | undefined) ?? null);
    const all: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        all.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    const inside = (box: Element, el: Element) => { for (let a: Element | null = el; a; a = up(a)) if (a === box) return true; return false; };
    const says = (el: Element) => {
      if (/^(?:SCRIPT|STYLE|TEMPLATE|NOSCRIPT|OPTION|HEAD|TITLE)$/.test(el.tagName)) return false;
      if ([el.getAttribute('aria-label'), el.getAttribute('title')].some((t) => t && want.includes(norm(t)))) return true;
      const t = norm(el.textContent);
      return want.includes(t) && ![...el.children].some((c) => norm(c.textContent) === t);
    };
    const clickable = (el: Element) => el.matches('a[href],button,[role=button],[role=menuitem],[tabindex]:not([tabindex="-1"]),[onclick],[aria-expanded],[aria-haspopup],[data-toggle],[data-bs-toggle]') || getComputedStyle(el).cursor === 'pointer';
    // An overflow control: its glyph, words, popup attribute or icon class says "more".
    const MORE_TEXT = /^(?:⋯|…|\.\.\.|⋮|︙|···|•••|more|more actions|more options|actions|options|menu|row actions|open menu|show more actions)$/;
    const MORE_CLASS = /(?:^|[\s_-])(?:more|kebab|ellipsis|dots|overflow|meatball|more-vert|more-horiz|three-dots|actions-toggle|dropdown-toggle)(?:$|[\s_-])/i;
    const moreLike = (el: Element) => {
      if (!shown(el) || !clickable(el)) return false;
      // A value picker pops up its choices, not the row's actions (an empty mat-select is
      // aria-haspopup with no text, like a bare ⋯ button).
      if (el.matches('select,[role=combobox],[role=listbox],[aria-haspopup=listbox]')) return false;
      const words = [el.textContent, el.getAttribute('aria-label'), el.getAttribute('title')].map(norm);
      if (words.some((w) => w && MORE_TEXT.test(w))) return true;
      if (el.hasAttribute('aria-haspopup') && norm(el.textContent).length <= 2) return true;
      // Material's fontIcon / svgIcon name the picture in an attribute when the font is not there.
      const iconAttr = (x: Element) => ['fonticon', 'data-mat-icon-name', 'svgicon', 'data-icon'].map((a) => norm(x.getAttribute(a))).find(Boolean) ?? '';
      return [el, ...el.querySelectorAll('*')].some((x) => MORE_CLASS.test(x.getAttribute('class') ?? '') || /^(?:more_vert|more_horiz)$/.test(norm(x.textContent)) || /^(?:more[_-]?(?:vert|horiz|vertical|horizontal)?|dots[_-]?(?:vertical|horizontal)?|kebab|ellipsis(?:[_-][hv])?|overflow[_-]?menu)$/.test(iconAttr(x)));
    };
    const nameOf = (el: Element) => (el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
    // The rows: the innermost elements showing exactly the scope, each widened to the first box
    // holding controls besides the text (never one that shows the scope twice).
    const rows = new Set<Element>();
    for (const el of all) {
      if (norm(el.textContent) !== sc || !shown(el) || [...el.children].some((c) => norm(c.textContent) === sc)) continue;
      for (let a = up(el), i = 0; a && i < 8 && a !== document.body; a = up(a), i++) {
        if ((a.textContent ?? '').length > 2000) break;
        const again = [...a.querySelectorAll('*')].filter((x) => norm(x.textContent) === sc && ![...x.children].some((c) => norm(c.textContent) === sc));
        if (again.length > 1) break;
        const controls = [...a.querySelectorAll('*')].filter((x) => x !== el && !inside(x, el) && shown(x) && clickable(x));
        if (controls.some(moreLike) || [...a.querySelectorAll('*')].some((x) => says(x) && !shown(x))) { rows.add(a); break; }
        // The first box with controls of its own is the row (a card with its icon buttons): a
        // wider box's ⋯ is a list's or a page's menu, never this row's (a silent wrong seen).
        if (controls.length) break;
      }
    }
    if (rows.size !== 1) return null;
    const row = [...rows][0];
    let opener: Element | null = null;
    // Guided: the hidden target's outermost hidden box inside the row, and what opens it.
    const target = [...row.querySelectorAll('*')].find((x) => says(x) && !shown(x));
    if (target) {
      let box: Element = target;
      while (up(box) && up(box) !== row && !shown(up(box)!)) box = up(box)!;
      if (box.id) {
        const esc = CSS.escape(box.id);
        opener = [...row.querySelectorAll(`[aria-controls~="${esc}"],a[href="#${esc}"],[data-target="#${esc}"],[data-bs-target="#${esc}"]`)].find(shown) ?? null;
      }
      for (let s = box.previousElementSibling; !opener && s; s = s.previousElementSibling) {
        if (!shown(s)) continue;
        const c = clickable(s) ? s : [...s.querySelectorAll('*')].find((x) => shown(x) && clickable(x)) ?? null;
        if (c && moreLike(c)) opener = c;
        break;
      }
    }
    // Blind: the row's only overflow control.
    if (!opener) {
      const mores = [...row.querySelectorAll('*')].filter(moreLike).filter((x, _i, arr) => !arr.some((y) => y !== x && inside(y, x)));
      if (mores.length === 1) opener = mores[0];
    }
    if (!opener || skip.includes(norm(nameOf(opener)) + ' @ ' + sc)) return null;
    return { el: opener, label: `"${nameOf(opener) || 'menu'}" in the row showing "${sc}"` };
  }, { want, sc, skip: skip.map((x) => x.toLowerCase()) }).catch(() => null);
  return clickOpener(page, handle);
}
