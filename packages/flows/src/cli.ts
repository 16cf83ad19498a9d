#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { suiteMain } from './cli-suite.js';
import { call, localServer, parseCommandLine, type Api } from './cli-api.js';
import { evalMain } from './cli-eval.js';

// `ariadne run plan.md --url http://...` for CI: runs a plan, prints live progress,
// writes the reports you ask for, and exits 0 when every case passed, 1 when one
// failed, 2 on a usage error, a bad plan or a run that could not run. With --server
// (or ARIADNE_SERVER) it uses a running Ariadne; without, it starts one in-process
// (embedded Redis in a temp dir, Debian Chromium) and stops it after.

const USAGE = `Usage: ariadne run <plan.md> --url <start url> [options]

Options:
  --url URL             where the flow starts (http or https)
  --planner NAME        rules (default, offline), anthropic or openai
  --model NAME          model for anthropic/openai
  --model-key KEY       model API key (else ANTHROPIC_API_KEY / OPENAI_API_KEY)
  --base-url URL        model API base URL (OpenAI-compatible: Ollama, vLLM, LM Studio)
  --var NAME=VALUE      a plan variable ({{NAME}}); repeat for more
  --replay RUN_ID       replay a finished run (self-healing) instead of planning
  --junit FILE          write the JUnit XML report
  --json FILE           write the JSON report
  --spec FILE           write the Playwright spec of the passing cases
  --server URL          use a running Ariadne (else ARIADNE_SERVER, else start one here)
  --token KEY           API key of that server (else ARIADNE_TOKEN)
  --no-trace            skip the Playwright trace per case
  --quiet               only the summary
Exit codes: 0 all cases passed, 1 a case failed, 2 the run could not run.`;

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
const green = (s: string) => paint('32', s);
const red = (s: string) => paint('31', s);
const dim = (s: string) => paint('2', s);

function describeStep(s: any): string {
  const target = s.locator?.code ? ` ${dim(s.locator.code)}` : s.params?.url ? ` ${s.params.url}` : '';
  const mark = s.status === 'passed' ? green('✓') : red('✗');
  const healed = s.healed ? ' [healed]' : '';
  return `  ${mark} [${s.role}] ${s.action}${target} — ${s.asked} (${s.durationMs} ms)${healed}${s.error ? `\n      ${red(s.error.code)}: ${s.error.message}` : ''}`;
}

/** Follow the run's server-sent events, printing progress, until run_finished. */
async function follow(api: Api, id: string, quiet: boolean): Promise<void> {
  let since = 0;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const res = await fetch(`${api.base}/v1/runs/${id}/events?since=${since}`, { headers: api.token ? { authorization: `Bearer ${api.token}` } : {} });
      if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
      const decoder = new TextDecoder();
      let buf = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const e = JSON.parse(data.slice(6));
          since = e.seq;
          if (!quiet) print(e);
          if (e.type === 'run_finished') return;
        }
      }
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

function print(e: any): void {
  switch (e.type) {
    case 'run_started': console.log(`Run ${e.runId}: ${e.cases.length} case(s), planner ${e.planner}`); break;
    case 'run_restarted': console.log(`  (run restarted on another worker: attempt ${e.attempt})`); break;
    case 'case_started': console.log(`▶ Case ${e.case}: ${e.name}`); break;
    case 'step': console.log(describeStep(e.step)); break;
    case 'case_retry': console.log(`  ↻ Case ${e.case}: attempt ${e.attempt} in a fresh context (${e.reason})`); break;
    case 'case_finished': console.log(`${e.status === 'passed' || e.status === 'flaky' ? green('✓') : red('✗')} Case ${e.case} ${e.status} (${(e.durationMs / 1000).toFixed(1)} s)${e.status === 'passed' ? '' : `: ${e.summary}`}`); break;
    default: break;
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'suite') return suiteMain(argv.slice(1));
  if (argv[0] === 'eval') return evalMain(argv.slice(1));
  const parsed = parseCommandLine(() => parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' }, planner: { type: 'string' }, model: { type: 'string' }, 'model-key': { type: 'string' },
      'base-url': { type: 'string' }, var: { type: 'string', multiple: true }, replay: { type: 'string' }, junit: { type: 'string' },
      json: { type: 'string' }, spec: { type: 'string' }, server: { type: 'string' }, token: { type: 'string' },
      'no-trace': { type: 'boolean' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  }), USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values: o, positionals } = parsed;
  const [cmd, planFile] = positionals;
  if (cmd !== 'run' || (!planFile && !o.replay)) {
    console.error(USAGE);
    return 2;
  }
  const variables: Record<string, string> = {};
  for (const v of o.var ?? []) {
    const i = v.indexOf('=');
    if (i <= 0) {
      console.error(`--var ${v}: write NAME=VALUE`);
      return 2;
    }
    variables[v.slice(0, i)] = v.slice(i + 1);
  }
  let plan: string | undefined;
  if (planFile) {
    try {
      plan = readFileSync(planFile, 'utf8');
    } catch (err) {
      console.error(`Cannot read ${planFile}: ${(err as Error).message}`);
      return 2;
    }
  }
  const planner = o.planner as 'rules' | 'anthropic' | 'openai' | undefined;
  const body = {
    ...(o.url ? { url: o.url } : {}),
    ...(plan ? { plan } : {}),
    ...(planner ? { planner } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(o['model-key'] ?? (planner === 'anthropic' ? process.env.ANTHROPIC_API_KEY : planner === 'openai' ? process.env.OPENAI_API_KEY : undefined)
      ? { apiKey: o['model-key'] ?? (planner === 'anthropic' ? process.env.ANTHROPIC_API_KEY : process.env.OPENAI_API_KEY) }
      : {}),
    ...(o['base-url'] ? { baseUrl: o['base-url'] } : {}),
    ...(Object.keys(variables).length ? { variables } : {}),
    ...(o.replay ? { replayOf: o.replay } : {}),
    ...(o['no-trace'] ? { options: { trace: false } } : {}),
  };

  const serverUrl = o.server ?? process.env.ARIADNE_SERVER;
  let local: { api: Api; stop: () => Promise<void> } | null = null;
  let api: Api;
  if (serverUrl) api = { base: serverUrl.replace(/\/$/, ''), token: o.token ?? process.env.ARIADNE_TOKEN };
  else {
    try {
      local = await localServer();
    } catch (err) {
      console.error(`Could not start Ariadne here: ${(err as Error).message}`);
      return 2;
    }
    api = local.api;
  }
  const stopLocal = () => void local?.stop();
  process.once('SIGINT', stopLocal);
  process.once('SIGTERM', stopLocal);
  try {
    const created = await call(api, 'POST', '/v1/runs', body);
    if (created.status !== 202) {
      const e = created.body?.error;
      console.error(e ? `${e.code}: ${e.message}` : `POST /v1/runs answered ${created.status}: ${created.text.slice(0, 500)}`);
      return 2;
    }
    const id = created.body.id as string;
    await follow(api, id, Boolean(o.quiet));
    let run: any;
    for (;;) {
      run = (await call(api, 'GET', `/v1/runs/${id}`)).body;
      if (!['queued', 'running'].includes(run.status)) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const report = run.report;
    if (o.json && report) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`);
    if (o.junit && report) writeFileSync(o.junit, (await call(api, 'GET', `/v1/runs/${id}/junit`)).text);
    if (o.spec) {
      const spec = await call(api, 'GET', `/v1/runs/${id}/spec`);
      if (spec.status === 200) writeFileSync(o.spec, spec.text);
      else console.error(`No spec written: ${spec.body?.error?.message ?? spec.status}`);
    }
    const t = report?.totals;
    const line = `Run ${id}: ${run.status}${t ? ` — ${t.passed + (t.flaky ?? 0)}/${t.cases} cases passed${t.flaky ? ` (${t.flaky} flaky)` : ''}, ${t.steps} steps, ${t.failedAssertions} failed assertion(s)${t.turns ? `, ${t.turns} model turns, ${t.inputTokens} input + ${t.outputTokens} output tokens` : ''}` : ''}${report ? `, ${(report.durationMs / 1000).toFixed(1)} s` : ''}`;
    console.log(run.status === 'passed' ? green(line) : red(line));
    if (run.error) console.log(red(`${run.error.code}: ${run.error.message}`));
    if (run.status === 'passed') return 0;
    return run.status === 'failed' ? 1 : 2;
  } catch (err) {
    console.error(`ariadne: ${(err as Error).message}`);
    return 2;
  } finally {
    process.off('SIGINT', stopLocal);
    process.off('SIGTERM', stopLocal);
    await local?.stop();
  }
}

// Run when executed (also through the npm bin symlink), not when imported.
const invoked = process.argv[1] ? path.resolve(process.argv[1]) : '';
if (invoked && /(?:^|[/\\])(?:cli\.js|ariadne)$/.test(invoked)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    console.error(err);
    process.exit(2);
  });
}
