import { describe, expect, it } from 'vitest';
import { githubDescription, githubState, githubStatusBody, outcomeOf, slackMessage, suiteStatusOf } from '@ariadne/suites';

// The pure parts of suite notifications: a suite run's status with flaky cases, the
// GitHub state and description, the first failure and the Slack message built from it.

const totals = (t: Partial<Record<string, number>>) => ({ cases: 0, passed: 0, flaky: 0, failed: 0, skipped: 0, cancelled: 0, steps: 0, assertions: 0, failedAssertions: 0, ...t });
const suite = { id: 's1', name: 'shop smoke', plans: [] } as never;
const run = { id: 'sr1', createdAt: '', baseUrl: 'https://x', trigger: { type: 'github', repo: 'acme/shop', sha: 'abcdef0123', environment: 'staging' }, runs: [{ plan: 'login', runId: 'r1' }, { plan: 'cart', runId: 'r2' }] } as never;

function rec(id: string, status: string, t: Partial<Record<string, number>>, cases: unknown[] = []) {
  return { id, status, report: { totals: totals(t), cases } } as never;
}

describe('suite run outcome', () => {
  it('is flaky when every run passed and some case only on a retry; flaky counts as passing for GitHub', () => {
    const recs = [rec('r1', 'passed', { cases: 2, passed: 2 }), rec('r2', 'passed', { cases: 2, passed: 1, flaky: 1 })];
    const status = suiteStatusOf(recs);
    expect(status).toBe('flaky');
    expect(githubState(status)).toBe('success');
    const o = outcomeOf(run, recs, status);
    expect(githubDescription(o)).toBe('4/4 cases passed (1 flaky)');
    expect(o.failure).toBeNull();
    expect(o.focusRunId).toBe('r1');
  });

  it('names the first failing case and step, and links its run', () => {
    const failing = { index: 2, name: 'Pay', status: 'failed', summary: 'x', steps: [{ status: 'passed', asked: 'Click "Pay"' }, { status: 'failed', asked: 'Verify "Paid" is visible', error: { code: 'assertion_failed', message: 'Expected "Paid" is visible' } }] };
    const recs = [rec('r1', 'passed', { cases: 1, passed: 1 }), rec('r2', 'failed', { cases: 3, passed: 2, failed: 1 }, [failing])];
    const status = suiteStatusOf(recs);
    expect(githubState(status)).toBe('failure');
    const o = outcomeOf(run, recs, status);
    expect(githubDescription(o)).toBe('3/4 cases passed');
    expect(o.failure).toEqual({ plan: 'cart', runId: 'r2', case: 'Case 2: Pay', step: 'Verify "Paid" is visible', error: 'Expected "Paid" is visible' });
    const msg = slackMessage(suite, run, o, 'https://a.example/v1/runs/r2/report');
    expect(msg.text.split('\n')).toEqual([
      '❌ Suite "shop smoke" failed (staging, acme/shop@abcdef0): 3/4 cases passed',
      'Failing: cart › Case 2: Pay',
      'Step: Verify "Paid" is visible',
      'Error: Expected "Paid" is visible',
      'Report: https://a.example/v1/runs/r2/report',
    ]);
    expect(JSON.stringify(msg.blocks)).toContain('<https://a.example/v1/runs/r2/report|Open the report>');
  });

  it('maps errors and cancellations to GitHub "error", keeps descriptions within 140 characters', () => {
    expect(githubState(suiteStatusOf([rec('r1', 'error', {}), rec('r2', 'passed', { cases: 1, passed: 1 })]))).toBe('error');
    expect(githubState(suiteStatusOf([rec('r1', 'cancelled', {})]))).toBe('error');
    expect(githubState(suiteStatusOf([null]))).toBe('error');
    const body = JSON.parse(githubStatusBody(suite, 'failure', 'y'.repeat(300), 'https://a/r'));
    expect(body).toMatchObject({ state: 'failure', context: 'ariadne/shop smoke', target_url: 'https://a/r' });
    expect(body.description.length).toBe(140);
  });
});
