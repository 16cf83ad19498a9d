import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { StepRecord } from '@ariadne/flows';
import { runRulesPlan, type RulesPlanRun } from './rules-plan.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { startTestService, type TestService } from './service.js';

// The set-up every plain-English test file shares: a service with short action and look-up
// budgets, the fixture server, plans through the rules planner and REST actions by
// description on tests/fixtures/plain-english/ pages, each read back from the page's #log.

export interface RestRun {
  answers: { status: number; body: any }[];
  log: string;
  /** Each input's value by id, at the end. */
  values: Record<string, string>;
}

export interface PlainEnglish {
  readonly svc: TestService;
  readonly fx: FixtureServer;
  plan(page: string, steps: string[]): Promise<RulesPlanRun>;
  /** REST actions on a fresh session, stopping at the first answer that is not 200. */
  rest(page: string, actions: Record<string, unknown>[]): Promise<RestRun>;
}

/** Registers the file's beforeAll/afterAll; call at the top level of a test file. */
export function usePlainEnglish(name: string): PlainEnglish {
  let svc: TestService | undefined;
  let fx: FixtureServer | undefined;
  let dir = '';
  let seq = 0;
  beforeAll(async () => {
    [svc, fx] = await Promise.all([startTestService({ ACTION_TIMEOUT_MS: '4000', DESCRIBE_WAIT_MS: '800' }), startFixtureServer()]);
    dir = mkdtempSync(path.join(tmpdir(), `ariadne-${name}-`));
  });
  afterAll(async () => {
    await svc?.stop();
    await fx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const pe: PlainEnglish = {
    get svc() { return svc!; },
    get fx() { return fx!; },
    plan: (page, steps) => runRulesPlan(svc!, {
      url: `${fx!.url}/plain-english/${page}`, steps, runId: `${name}${++seq}`, artifactsDir: dir,
      settings: { actionTimeoutMs: 4000, describeWaitMs: 800, assertTimeoutMs: 1000 },
    }),
    async rest(page, actions) {
      const id = await svc!.api.createSession();
      try {
        expect((await svc!.api.action(id, { action: 'navigate', url: `${fx!.url}/plain-english/${page}` })).status).toBe(200);
        const answers: RestRun['answers'] = [];
        for (const a of actions) {
          const r = await svc!.api.action(id, a);
          answers.push(r);
          if (r.status !== 200) break;
        }
        const state = (await svc!.service.sessions.use('local', id)).role('default').page();
        const log = await state.page.evaluate(() => document.getElementById('log')?.textContent ?? '');
        const values = await state.page.evaluate(() => Object.fromEntries([...document.querySelectorAll('input')].map((e) => [e.id, e.value])));
        return { answers, log, values };
      } finally {
        await svc!.api.delete(`/v1/sessions/${id}`);
      }
    },
  };
  return pe;
}

export const failedSteps = (r: { steps: StepRecord[] }): StepRecord[] => r.steps.filter((s) => s.status === 'failed');
export const failureMessages = (r: { steps: StepRecord[] }): string => failedSteps(r).map((s) => s.error?.message ?? '').join('\n');
