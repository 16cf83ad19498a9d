import type { Page } from 'playwright-core';

// Entering a one-time code: into one field, or into a split input (one box per
// character). A split input gets a paste event on its first box, as a person pasting
// the code would, because many apps (React ones especially) move the focus on every
// input event and lose characters typed one key per box; when the page ignores the
// paste, it falls back to real key presses box by box. Either way the boxes are read
// back: the step passes only if they hold the code.

export interface CodeEntry {
  /** paste: one paste event on the group; keys: one key press per box; fill: a single field. */
  method: 'paste' | 'keys' | 'fill';
  boxes: number;
  /** What the fields hold afterwards, joined. */
  value: string;
}

interface Found {
  kind: 'group' | 'single';
  /** Indexes into document.querySelectorAll('input'). */
  inputs: number[];
}

/** Finds the code input(s) on the page: a group of one-character boxes, else one code field. */
async function findCodeInputs(page: Page, length: number): Promise<Found | null> {
  return page.evaluate((len) => {
    const all = Array.from(document.querySelectorAll('input'));
    const visible = (el: HTMLInputElement) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && !el.disabled && !el.readOnly;
    };
    const texty = (el: HTMLInputElement) => ['', 'text', 'tel', 'number', 'password', 'search'].includes((el.getAttribute('type') ?? '').toLowerCase());
    const boxes = all.filter((el) => texty(el) && visible(el) && el.maxLength === 1);
    // Group the boxes by their nearest common container: the group with the most boxes.
    const groups = new Map<Element, HTMLInputElement[]>();
    for (const el of boxes) {
      let parent: Element | null = el.parentElement;
      // Climb until the container holds at least 4 boxes (or give up at body).
      while (parent && parent !== document.body && parent.querySelectorAll('input').length < 4) parent = parent.parentElement;
      if (!parent) continue;
      const list = groups.get(parent) ?? [];
      list.push(el);
      groups.set(parent, list);
    }
    let best: HTMLInputElement[] = [];
    for (const list of groups.values()) if (list.length > best.length) best = list;
    if (best.length >= Math.min(4, len)) return { kind: 'group' as const, inputs: best.map((el) => all.indexOf(el)) };
    const words = /(one[\s_-]?time|otp|code|verif|pin|token|passcode)/i;
    const labelOf = (el: HTMLInputElement) =>
      [el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.name, el.id, ...Array.from(el.labels ?? []).map((l) => l.textContent)].join(' ');
    const single = all.find((el) => texty(el) && visible(el) && (el.autocomplete === 'one-time-code' || words.test(labelOf(el))));
    return single ? { kind: 'single' as const, inputs: [all.indexOf(single)] } : null;
  }, length);
}

async function readBack(page: Page, inputs: number[]): Promise<string> {
  return page.evaluate((idx) => {
    const all = Array.from(document.querySelectorAll('input'));
    return idx.map((i) => all[i]?.value ?? '').join('');
  }, inputs);
}

/** Enters `code` into the page's code input(s); throws with what the fields hold when it did not take. */
export async function enterOneTimeCode(page: Page, code: string, timeoutMs: number): Promise<CodeEntry> {
  const found = await findCodeInputs(page, code.length);
  if (!found) throw Object.assign(new Error('No code input on the page: no group of one-character boxes and no field named like "code", "OTP" or "verification".'), { code: 'target_not_found' });
  const input = (i: number) => page.locator('input').nth(found.inputs[i]);
  if (found.kind === 'single') {
    await input(0).fill(code, { timeout: timeoutMs });
    return { method: 'fill', boxes: 1, value: await readBack(page, found.inputs) };
  }
  // A paste on the first box, with the code on the clipboard data of the event.
  await input(0).focus({ timeout: timeoutMs });
  await input(0).evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, code);
  let value = await readBack(page, found.inputs);
  if (value === code) return { method: 'paste', boxes: found.inputs.length, value };
  // The page ignored the paste: one real key press per box.
  for (let i = 0; i < Math.min(code.length, found.inputs.length); i++) {
    await input(i).click({ timeout: timeoutMs });
    await input(i).press('Control+A', { timeout: timeoutMs }).catch(() => {});
    await input(i).pressSequentially(code[i], { timeout: timeoutMs });
  }
  value = await readBack(page, found.inputs);
  return { method: 'keys', boxes: found.inputs.length, value };
}
