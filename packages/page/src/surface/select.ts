import type { ElementHandle, JSHandle, Locator, Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import { readDrawnSelect, type SelectRead } from '../bridge/injected/select-shape.js';

// select on a drop-down drawn without ARIA (bridge/injected/select-shape.ts): click the box, wait
// for its choices (options, or whatever became visible that was not before: a floating list, an
// overlay pane), click the one whose text is exactly the value (case and spaces aside), and read
// the box back. A value not offered closes the list (Escape) and fails naming the choices seen;
// two choices with that text fail too. Never a near match.

/** The box as drawn, or null when the element is not drawn as a drop-down. */
export async function readDrawnSelectState(loc: Locator, timeout = 2000): Promise<SelectRead | null> {
  return loc.evaluate(readDrawnSelect, undefined, { timeout });
}

/** Every element visible now (before the click), to tell the choices that appear after it. */
function visibleNow(): WeakSet<Element> {
  const seen = new WeakSet<Element>();
  for (const e of Array.from(document.querySelectorAll('body *'))) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0) seen.add(e);
  }
  return seen;
}

interface Choices { texts: string[]; match: number }

/**
 * The choices shown now that were not before: options, else newly visible elements with a short
 * text of their own, outermost per text; `match` the index of the one equal to the value, -1 none,
 * -2 several. Marks the match for the caller to fetch (a property, not an attribute).
 */
function choicesShown(box: Element, arg: { before: WeakSet<Element>; value: string }): Choices {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const visible = (e: Element) => {
    const r = e.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.right <= 0 || r.bottom <= 0) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  const fresh = (e: Element) => !arg.before.has(e) && visible(e);
  let items = Array.from(document.querySelectorAll('[role=option]')).filter(fresh);
  if (!items.length) {
    const found: Element[] = [];
    for (const e of Array.from(document.querySelectorAll('body *'))) {
      if (!fresh(e) || e.closest('script, style, template') || e === box || e.contains(box)) continue;
      // Own text: a text node child with a letter or digit.
      let own = false;
      for (let c = e.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && /[\p{L}\p{N}]/u.test(c.nodeValue ?? '')) own = true;
      if (!own) continue;
      const t = norm(e.textContent);
      if (!t || t.length > 80) continue;
      // The outermost fresh element with the same text stands for it (an <li> over its <span>).
      let item: Element = e;
      for (let up = e.parentElement; up && fresh(up) && norm(up.textContent) === t && up !== box; up = up.parentElement) item = up;
      if (!found.includes(item)) found.push(item);
      if (found.length > 200) break;
    }
    items = found;
  }
  const texts = items.map((e) => norm((e as HTMLElement).innerText || e.textContent));
  const want = norm(arg.value).toLowerCase();
  const hits = items.filter((_, i) => texts[i].toLowerCase() === want);
  const w = window as unknown as { __ariadneChoice?: Element };
  w.__ariadneChoice = hits.length === 1 ? hits[0] : undefined;
  return { texts, match: hits.length === 1 ? items.indexOf(hits[0]) : hits.length ? -2 : -1 };
}

function list(texts: string[]): string {
  return texts.slice(0, 15).map((t) => JSON.stringify(t)).join(', ');
}

export async function selectDrawn(page: Page, loc: Locator, values: string[], timeout: number): Promise<unknown> {
  if (values.length !== 1) throw new AppError('action_failed', 'A drop-down drawn without ARIA holds one value: give one.', { values });
  const value = values[0];
  const now = await readDrawnSelectState(loc, timeout);
  if (now && now.value.trim().toLowerCase() === value.trim().toLowerCase()) return { selected: [now.value], changed: false, showing: now.value, note: `the drop-down already shows "${now.value}"` };
  const before: JSHandle<WeakSet<Element>> = await page.evaluateHandle(visibleNow);
  try {
    await loc.click({ timeout });
    // The choices: wait until the value shows among them, or what shows stops changing.
    const deadline = Date.now() + Math.min(timeout, 2500);
    let seen: Choices = { texts: [], match: -1 };
    let stable = 0;
    for (;;) {
      const got = await loc.evaluate(choicesShown, { before, value }, { timeout }).catch(() => seen);
      stable = got.texts.length && got.texts.join('\n') === seen.texts.join('\n') ? stable + 1 : 0;
      seen = got;
      if (seen.match >= 0 || seen.match === -2 || stable >= 3 || Date.now() > deadline) break;
      await page.waitForTimeout(100);
    }
    if (seen.match < 0) {
      await page.keyboard.press('Escape').catch(() => {});
      const why = seen.match === -2 ? `several choices read "${value}"` : seen.texts.length ? `no choice "${value}"` : `no choices appeared after clicking it`;
      throw new AppError('action_failed', `Nothing chosen in the drop-down: ${why}${seen.texts.length ? `; the choices are: ${list(seen.texts)}` : ''}.`, { value, options: seen.texts.slice(0, 30) });
    }
    const choice = (await page.evaluateHandle(() => (window as unknown as { __ariadneChoice?: Element }).__ariadneChoice ?? null)).asElement() as ElementHandle<Element> | null;
    if (!choice) throw new AppError('action_failed', `The choice "${value}" went away before it could be clicked.`, { value });
    await choice.click({ timeout });
    await choice.dispose().catch(() => {});
  } finally {
    await before.dispose().catch(() => {});
    await page.evaluate(() => { delete (window as unknown as { __ariadneChoice?: Element }).__ariadneChoice; }).catch(() => {});
  }
  // Read back: the box shows the value (a page may take a tick to render it).
  const end = Date.now() + 1000;
  let after: SelectRead | null = null;
  for (;;) {
    const attached = (await loc.count().catch(() => 0)) > 0;
    if (!attached) return { selected: [value], replaced: true };
    after = await readDrawnSelectState(loc, 1000).catch(() => null);
    if (after && after.value.trim().toLowerCase() === value.trim().toLowerCase()) return { selected: [value], showing: after.value };
    if (Date.now() > end) break;
    await page.waitForTimeout(100);
  }
  throw new AppError('select_failed', `Chose "${value}", but the drop-down now shows ${after ? JSON.stringify(after.value) : 'something that cannot be read'}.`, { expected: value, observed: after?.value ?? null });
}
