import { describe, expect, it } from 'vitest';
import type { RulesPlanRun } from './helpers/rules-plan.js';
import { usePlainEnglish } from './helpers/plain-english.js';

// People place a control by the text near it: "the fourth star under 'Tell us how we did'",
// "the › arrow after 'Showing 1 to 2 of 7'". Words that lead onto the landmark text itself
// must not pass: a click on a heading or a caption that changes nothing is no_effect, for
// plans and REST descriptions alike (seen as silent wrong passes on held-out pages). Either
// the control is found, or the step fails; never a pass with nothing done.

const pe = usePlainEnglish('lm');
const plan = (steps: string[]) => pe.plan('landmarks.html', steps);

/** A pass must have done the thing; anything else must be a failed step. */
function rightOrFailed(r: RulesPlanRun, want: string): void {
  const failed = r.steps.some((s) => s.status === 'failed');
  if (!failed) expect(r.log, JSON.stringify(r.steps.map((s) => [s.asked, s.target, s.status]))).toBe(want);
}

describe('a landmark is not the control', () => {
  it('plans: a star or an arrow placed by a caption never passes by clicking the caption', async () => {
    const a = await plan(["Click the fourth star under 'Tell us how we did'"]);
    rightOrFailed(a, 'rate 4;');
    const b = await plan(["Click the › arrow right after 'Showing 1 to 2 of 7'"]);
    rightOrFailed(b, 'next;');
    const c = await plan(['Click the sixth star under "Tell us how we did"']);
    expect(c.steps.some((s) => s.status === 'failed'), JSON.stringify(c.steps.map((s) => [s.asked, s.target]))).toBe(true);
    expect(c.log).toBe('');
  });

  it('REST: the same descriptions answer the control or an error, never ok on the caption', async () => {
    const id = await pe.svc.api.createSession();
    try {
      expect((await pe.svc.api.action(id, { action: 'navigate', url: `${pe.fx.url}/plain-english/landmarks.html` })).status).toBe(200);
      const state = (await pe.svc.service.sessions.use('local', id)).role('default').page();
      const log = () => state.page.evaluate(() => document.getElementById('log')?.textContent ?? '');
      const r1 = await pe.svc.api.action(id, { action: 'click', description: "the sixth star under 'Tell us how we did'" });
      expect(r1.status, JSON.stringify(r1.body)).not.toBe(200);
      expect(await log()).toBe('');
      const r2 = await pe.svc.api.action(id, { action: 'click', description: "the next arrow after 'Showing 1 to 2 of 7'" });
      if (r2.status === 200) expect(await log()).toBe('next;');
      else expect(['no_effect', 'target_not_found', 'ambiguous_target']).toContain(r2.body.error.code);
      // The caption itself, asked for by a selector, is clicked as asked: ok (only the beacon went).
      const r3 = await pe.svc.api.action(id, { action: 'click', selector: '#range' });
      expect(r3.status).toBe(200);
      expect(r3.body.effect.dom).toBe(0);
    } finally {
      await pe.svc.api.delete(`/v1/sessions/${id}`);
    }
  });
});

describe('a row\'s selection box is not the row\'s setting', () => {
  const table = (steps: string[]) => pe.plan('member-table.html', steps);

  it('"Activate Olu Ade" never ticks the selection box of Olu Ade\'s row; "Tick Olu Ade\'s box" still does', async () => {
    // The row's one switch is the setting a person means (the row's text names it, not the switch).
    for (const step of ['Activate Olu Ade', 'Deactivate Mara Lind', 'Turn on Olu Ade']) {
      const r = await table([step]);
      expect(r.steps.filter((s) => s.status === 'failed').map((s) => s.error?.message), step).toEqual([]);
      expect(r.log, step).toMatch(/^(active Olu Ade|inactive Mara Lind);$/);
    }
    const tick = await table(["Tick Olu Ade's box"]);
    expect(tick.steps.filter((s) => s.status === 'failed')).toEqual([]);
    expect(tick.log).toBe('picked Olu Ade;');
  });
});
