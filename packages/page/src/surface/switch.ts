import type { Locator } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import { readSwitch, type SwitchRead } from '../bridge/injected/switch-state.js';

// check/uncheck on a switch drawn without ARIA (a pill with a knob: bridge/injected/switch-state.ts).
// Playwright's checked state knows checkboxes, radios and ARIA roles only; this reads the
// switch the way a person does (where the knob sits, its state class, the checkbox it hides),
// clicks only when the state differs from the one asked, and reads it back. A state it cannot
// read is a refusal, never a click on a guess.

/** The switch as drawn, or null when the element is not drawn as one. */
export async function readSwitchState(loc: Locator, timeout = 2000): Promise<SwitchRead | null> {
  return loc.evaluate(readSwitch, undefined, { timeout });
}

/** Playwright's "not a checkbox" answer: the element has no checked state it knows of. */
export function notCheckable(err: unknown): boolean {
  return /Not a checkbox or radio button/i.test(String((err as Error)?.message ?? err));
}

/**
 * Checked or not, for assertions and re-reads: Playwright's reading (a checkbox, a radio, an ARIA
 * switch), else the switch as drawn; null when neither can tell (an unknown state, not a switch).
 */
export async function readChecked(loc: Locator, timeout = 1000): Promise<boolean | null> {
  try {
    return await loc.isChecked({ timeout });
  } catch (err) {
    if (!notCheckable(err)) return null;
    const r = await readSwitchState(loc, timeout).catch(() => null);
    return r && r.state !== 'unknown' ? r.state === 'on' : null;
  }
}

const word = (on: boolean) => (on ? 'on' : 'off');

/**
 * Turn a drawn switch on (want true) or off. Null when the element is not drawn as a switch
 * (the caller answers as for any element that cannot be checked).
 */
export async function setSwitch(loc: Locator, want: boolean, timeout: number): Promise<Record<string, unknown> | null> {
  const before = await readSwitchState(loc, Math.min(timeout, 5000));
  if (!before) return null;
  const expected = word(want);
  if (before.state === 'unknown') {
    throw new AppError('check_failed', `Cannot ${want ? 'check' : 'uncheck'} this switch: its state cannot be read (${before.evidence.join('; ')}), so a click might turn it ${want ? 'off' : 'on'} instead. Nothing was clicked; a plain click still toggles it.`, {
      observed: 'unknown', expected, evidence: before.evidence,
    });
  }
  if ((before.state === 'on') === want) return { checked: want, changed: false, switch: true, note: `the switch was already ${expected}: left as it was`, evidence: before.evidence };
  await loc.click({ timeout });
  // The knob slides (a transition) and frameworks re-render: read until it shows the state asked.
  const deadline = Date.now() + 1500;
  let after: SwitchRead | null = null;
  for (;;) {
    if ((await loc.count().catch(() => 0)) === 0) return { checked: want, changed: true, replaced: true, switch: true };
    after = await readSwitchState(loc, 500).catch(() => null);
    if (after?.state === expected) return { checked: want, changed: true, switch: true, evidence: after.evidence };
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const now = after ? after.state : 'not drawn as a switch any more';
  throw new AppError('check_failed', `Clicking the switch did not turn it ${expected}: it reads ${now}${after ? ` (${after.evidence.join('; ')})` : ''}.`, {
    observed: now, expected, ...(after ? { evidence: after.evidence } : {}),
  });
}
