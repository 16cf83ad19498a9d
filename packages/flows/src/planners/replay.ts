import type { Locator } from 'playwright-core';
import type { PlanCase, PlanStep } from '../plan.js';
import type { CaseReport, RunReport, StepRecord } from '../types.js';
import { locatorFromCode } from '../locators.js';
import { unredact, type CaseTools, type FlowAction } from '../tools.js';
import type { Planner } from './planner.js';

// Replay: re-run the recorded actions of a finished run without the planner — each on
// the verified locator recorded for it. A step whose locator no longer resolves to
// exactly one visible element (the page changed) is handed to the planner for that
// plan step only (self-healing); the steps it records are marked healed, and the case
// lists which plan steps healed. Plan steps with nothing recorded (the original case
// stopped before them) go to the planner as well.

export interface StepPlanner extends Planner {
  /** Do one plan step; false when it failed. */
  runStep?(step: PlanStep, tools: CaseTools, c: PlanCase): Promise<boolean>;
}

const LOCATOR_ACTIONS = new Set(['click', 'hover', 'fill', 'type', 'select', 'check', 'uncheck', 'press', 'clear']);
const PAGE_ACTIONS = new Set(['navigate', 'back', 'forward', 'reload', 'wait_for', 'scroll', 'handle_dialog']);

/** Does the recorded locator still find exactly one visible element (within waitMs)? */
async function resolves(tools: CaseTools, role: string, code: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const n = await tools.session.run(role, async (state) => {
      let loc: Locator;
      try {
        loc = locatorFromCode(state.page, code);
      } catch {
        return -1;
      }
      return loc.filter({ visible: true }).count().catch(() => 0);
    });
    if (n === 1) return true;
    if (n < 0 || Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 150));
  }
}

export class ReplayPlanner implements Planner {
  readonly name: string;
  readonly model?: string;

  constructor(private readonly original: RunReport, private readonly fallback: StepPlanner, private readonly variables: Record<string, string> = {}) {
    this.name = `replay+${fallback.name}`;
    this.model = fallback.model;
  }

  async runCase(c: PlanCase, tools: CaseTools): Promise<void> {
    const recorded: CaseReport | undefined = this.original.cases.find((x) => x.index === c.index && x.name === c.name) ?? this.original.cases.find((x) => x.index === c.index);
    const healed: number[] = [];
    for (const step of c.steps) {
      const steps = (recorded?.steps ?? []).filter((s) => s.planStep === step.index && s.status === 'passed');
      let outcome: 'ok' | 'unresolved' | 'failed' = steps.length ? 'ok' : 'unresolved';
      for (const s of steps) {
        outcome = await this.replay(s, step, tools);
        if (outcome !== 'ok') break;
      }
      let ok = outcome === 'ok';
      // Only a locator that no longer resolves is healed: a failed check is a real failure.
      if (outcome === 'unresolved') {
        // Self-healing: the planner does this plan step on the page as it is now.
        healed.push(step.index);
        tools.healing = true;
        try {
          ok = await this.heal(step, tools, c);
        } finally {
          tools.healing = false;
        }
      }
      if (!ok) {
        tools.report.healedSteps = healed;
        tools.complete(false, `Step ${step.index} failed in replay, and the planner could not redo it: ${step.text}`);
        return;
      }
    }
    tools.report.healedSteps = healed;
    tools.complete(true, healed.length ? `Replayed; healed steps ${healed.join(', ')}.` : 'Replayed the recorded actions.');
  }

  private async heal(step: PlanStep, tools: CaseTools, c: PlanCase): Promise<boolean> {
    if (!this.fallback.runStep) return false;
    return this.fallback.runStep(step, tools, c);
  }

  /** One recorded step: ok, unresolved (its locator no longer finds one element), or failed. */
  private async replay(s: StepRecord, step: PlanStep, tools: CaseTools): Promise<'ok' | 'unresolved' | 'failed'> {
    const r = await this.replayOnce(s, step, tools);
    return r === null ? 'unresolved' : r ? 'ok' : 'failed';
  }

  private async replayOnce(s: StepRecord, step: PlanStep, tools: CaseTools): Promise<boolean | null> {
    const ask = { planStep: step.index, asked: step.text, ...(s.secretParams ? { secretParams: s.secretParams } : {}) };
    // Secret values were recorded as {{NAME}}: put this run's values back.
    const p = unredact(s.params ?? {}, this.variables);
    if (s.action === 'assert' && s.assertion) {
      const a = s.assertion;
      if (a.check.type.startsWith('element_')) {
        if (!a.locator || !(await resolves(tools, s.role, a.locator.code, tools.settings.describeWaitMs))) return null;
        const rec = await tools.assert(s.role, a.check, { ...ask, description: a.description, locatorCode: a.locator.code });
        return rec.passed;
      }
      const rec = await tools.assert(s.role, a.check, { ...ask, description: a.description });
      return rec.passed;
    }
    if (s.action === 'wait_for_stable') {
      await tools.waitForStable(s.role, ask);
      return true;
    }
    if (PAGE_ACTIONS.has(s.action) || (s.action === 'press' && !s.locator)) {
      const body: FlowAction = { action: s.action, ...p } as FlowAction;
      return (await tools.act(s.role, body, ask)).ok;
    }
    if (LOCATOR_ACTIONS.has(s.action)) {
      const code = s.locator?.code;
      if (!code || !(await resolves(tools, s.role, code, tools.settings.describeWaitMs))) return null;
      const body = { action: s.action, ...p } as FlowAction;
      const res = await tools.actOnLocator(s.role, body, code, (state) => locatorFromCode(state.page, code), ask);
      return res.ok;
    }
    return null;
  }
}
