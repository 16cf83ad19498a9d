import type { RunReport } from './types.js';

// JUnit XML for CI: one <testsuite> per run, one <testcase> per plan case; a failed
// case carries a <failure> with the failed step or assertion, a cancelled or skipped
// one a <skipped/>, and the steps go to <system-out> so CI logs show the trajectory.

function esc(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const secs = (ms: number) => (ms / 1000).toFixed(3);

export function toJUnit(report: RunReport, suiteName = 'ariadne'): string {
  const t = report.totals;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="${esc(suiteName)}" tests="${t.cases}" failures="${t.failed}" errors="${report.error ? 1 : 0}" skipped="${t.skipped + t.cancelled}" time="${secs(report.durationMs)}">`);
  out.push(`  <testsuite name="${esc(`${suiteName} run ${report.runId}`)}" tests="${t.cases}" failures="${t.failed}" errors="${report.error ? 1 : 0}" skipped="${t.skipped + t.cancelled}" time="${secs(report.durationMs)}" timestamp="${esc(report.startedAt)}">`);
  out.push('    <properties>');
  out.push(`      <property name="url" value="${esc(report.url)}"/>`);
  out.push(`      <property name="planner" value="${esc(report.planner)}"/>`);
  if (report.model) out.push(`      <property name="model" value="${esc(report.model)}"/>`);
  if (report.replayOf) out.push(`      <property name="replayOf" value="${esc(report.replayOf)}"/>`);
  if (t.flaky) out.push(`      <property name="flaky" value="${t.flaky}"/>`);
  out.push('    </properties>');
  if (report.error) {
    out.push(`    <error message="${esc(report.error.message)}" type="${esc(report.error.code)}"/>`);
  }
  for (const c of report.cases) {
    out.push(`    <testcase classname="${esc(`ariadne.${report.planner}`)}" name="${esc(`Case ${c.index}: ${c.name}`)}" time="${secs(c.durationMs)}">`);
    // A case that passed only on a retry passes in JUnit too (CI stays green), but says so:
    // a property CI tools can read and a note at the top of its output.
    const tries = c.attempts ?? [];
    if (c.status === 'flaky' || tries.length > 1) {
      out.push('      <properties>');
      if (c.status === 'flaky') out.push('        <property name="flaky" value="true"/>');
      out.push(`        <property name="attempts" value="${tries.length}"/>`);
      out.push('      </properties>');
    }
    if (c.status === 'failed') {
      const failedAssertion = c.assertions.find((a) => !a.passed);
      const failedStep = c.steps.find((s) => s.status === 'failed');
      const message = failedAssertion?.error?.message ?? failedStep?.error?.message ?? c.error?.message ?? c.summary;
      const type = failedAssertion ? 'assertion_failed' : failedStep?.error?.code ?? c.error?.code ?? (c.missingAssertions.length ? 'missing_assertion' : 'failed');
      const body = [
        c.summary,
        ...c.missingAssertions.map((m) => `Not asserted: step ${m.planStep} "${m.text}"`),
        ...(failedStep?.error?.details ? [JSON.stringify(failedStep.error.details).slice(0, 2000)] : []),
      ].join('\n');
      out.push(`      <failure message="${esc(message)}" type="${esc(type)}">${esc(body)}</failure>`);
    } else if (c.status === 'skipped' || c.status === 'cancelled') {
      out.push(`      <skipped message="${esc(c.summary || c.status)}"/>`);
    }
    const retryNotes = tries.slice(0, -1).map((a) => `attempt ${a.attempt} ${a.status}: ${a.summary}`);
    if (c.status === 'flaky') retryNotes.unshift(`FLAKY: passed on attempt ${tries.length}, after ${tries.length - 1} failed attempt(s)`);
    const log = [...retryNotes, ...c.steps.map((s) => `${s.status === 'passed' ? 'ok ' : 'FAIL'} [${s.role}] ${s.action}${s.locator ? ` ${s.locator.code}` : ''} — ${s.asked} (${s.durationMs} ms)${s.healed ? ' [healed]' : ''}${s.error ? `: ${s.error.message}` : ''}`)];
    if (log.length) out.push(`      <system-out>${esc(log.join('\n'))}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>');
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
