import path from 'node:path';
import { DEFAULT_SETTINGS, DiskArtifacts, liveFlowSession, parsePlan, runFlow, RulesPlanner, type RunReport, type StepRecord } from '@ariadne/flows';
import type { TestService } from './service.js';

// One case of plain-English steps through the rules planner, in a session of the test
// service's own (in process), on a fixture page: what the plain-English and targeting
// tests run, to look at the steps and at what the page recorded.

export interface RulesPlanRun {
  report: RunReport;
  steps: StepRecord[];
  /** The text of the page's #log element at the end ('' when it has none). */
  log: string;
}

export async function runRulesPlan(svc: TestService, o: {
  url: string;
  steps: string[];
  runId: string;
  artifactsDir: string;
  settings?: Partial<typeof DEFAULT_SETTINGS>;
}): Promise<RulesPlanRun> {
  const parsed = parsePlan(`#Case 1: plain english\n${o.steps.map((s) => `- ${s}`).join('\n')}`);
  const { sessions } = svc.service;
  const created = await sessions.create('local', { roles: parsed.roles.map((name) => ({ name })) });
  const flow = liveFlowSession(await sessions.use('local', created.id));
  try {
    const report = await runFlow({
      runId: o.runId,
      url: o.url,
      plan: parsed,
      planner: new RulesPlanner(),
      session: flow,
      settings: { ...DEFAULT_SETTINGS, trace: false, screenshots: false, ...o.settings },
      artifacts: new DiskArtifacts(path.join(o.artifactsDir, o.runId)),
    });
    const log = await flow.run(parsed.roles[0], (s) => s.page.evaluate(() => document.getElementById('log')?.textContent ?? ''));
    return { report, log, steps: report.cases[0].steps };
  } finally {
    await sessions.end(created.id, 'closed', 'test');
  }
}
