import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { call, parseCommandLine, type Api } from './cli-api.js';

// `ariadne suite ...`: saved suites on a running Ariadne (issue 13), for CI and for the
// files teams keep in their repo. Same server flags and exit codes as `ariadne run`:
// 0 every case passed (or the command did what it was asked), 1 a case failed, 2 a usage
// error, a refused request, or a run that could not run.

export const SUITE_USAGE = `Usage:
  ariadne suite run <name|id> [--base-url URL] [--repo OWNER/NAME] [--sha SHA] [--environment ENV] [--wait]
  ariadne suite push <suite.yaml|suite.json>
  ariadne suite list

Options:
  --base-url URL        run against this deployment instead of the suite's baseUrl
  --repo OWNER/NAME     the GitHub repository (with --sha and a GITHUB_TOKEN suite secret:
                        the result is posted as a commit status)
  --sha SHA             the commit being tested (recorded on the runs)
  --environment ENV     the environment deployed to (recorded on the runs)
  --wait                wait for the suite's runs and print a summary (else: exit 0 once queued)
  --timeout SECONDS     give up waiting after this long (default 1800; exit 2)
  --server URL          the Ariadne server (else ARIADNE_SERVER)
  --token KEY           its API key (else ARIADNE_TOKEN)
Suite files are the body of POST /v1/suites in YAML or JSON; a plan may be given as
"file: plans/x.md" (relative to the suite file), and \${NAME} anywhere in the file is
replaced by the environment variable NAME, so the file holds no secret values.
Exit codes: 0 all cases passed, 1 a case failed, 2 the suite could not run (or a bad request).`;

class CliError extends Error {}

function refused(what: string, res: { status: number; body: any }): CliError {
  const e = res.body?.error;
  return new CliError(e ? `${what}: ${e.code}: ${e.message}` : `${what}: HTTP ${res.status}`);
}

/** The suite named (exact id, else exact name, which must be unique). */
async function findSuite(api: Api, ref: string): Promise<any | null> {
  const list = await call(api, 'GET', '/v1/suites');
  if (list.status !== 200) throw refused('GET /v1/suites', list);
  const suites = list.body.suites as any[];
  const byId = suites.find((s) => s.id === ref);
  if (byId) return byId;
  const byName = suites.filter((s) => s.name === ref);
  if (byName.length > 1) throw new CliError(`${byName.length} suites are named "${ref}": use its id (${byName.map((s) => s.id).join(', ')}).`);
  return byName[0] ?? null;
}

/** ${NAME} in every string of the document, from the environment; an unset name is an error. */
export function expandEnv<T>(value: T, env: NodeJS.ProcessEnv, where = ''): T {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const v = env[name];
      if (v === undefined) throw new CliError(`${where || 'the suite file'} uses \${${name}}, but the environment variable ${name} is not set.`);
      return v;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, env, `${where}[${i}]`)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env, where ? `${where}.${k}` : k)])) as T;
  }
  return value;
}

async function readSuiteFile(file: string): Promise<Record<string, any>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    if (/\.ya?ml$/i.test(file)) {
      const yaml = (await import('yaml' as string).catch(() => null)) as { parse(s: string): unknown } | null;
      if (!yaml) throw new CliError('Reading YAML needs the "yaml" package (npm i yaml), or write the suite as JSON.');
      doc = yaml.parse(text);
    } else doc = JSON.parse(text);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new CliError(`${file} must hold one suite (a mapping with name, baseUrl and plans).`);
  const suite = expandEnv(doc as Record<string, any>, process.env);
  // Plans kept as Markdown files beside the suite file.
  if (Array.isArray(suite.plans)) {
    suite.plans = suite.plans.map((p: any, i: number) => {
      if (!p || typeof p !== 'object' || typeof p.file !== 'string') return p;
      const { file: planFile, ...rest } = p;
      try {
        return { ...rest, plan: readFileSync(path.resolve(path.dirname(file), planFile), 'utf8') };
      } catch (err) {
        throw new CliError(`plans[${i}].file ${planFile}: ${(err as Error).message}`);
      }
    });
  }
  return suite;
}

async function push(api: Api, file: string): Promise<number> {
  const suite = await readSuiteFile(file);
  if (typeof suite.name !== 'string' || !suite.name) throw new CliError(`${file} has no "name" (a suite is created or updated by name).`);
  const existing = await findSuite(api, suite.name);
  let res;
  if (!existing) {
    res = await call(api, 'POST', '/v1/suites', suite);
    if (res.status !== 201) throw refused(`Suite "${suite.name}" not created`, res);
    console.log(`Created suite ${res.body.name} (${res.body.id})`);
  } else {
    // The file is the whole truth: what it leaves out is removed. Triggers keep their hook
    // URLs (matched by type, in order), so the platform settings stay valid.
    const free = [...existing.triggers] as { id: string; type: string }[];
    const triggers = ((suite.triggers ?? []) as any[]).map((t) => {
      const i = free.findIndex((o) => o.type === t?.type);
      return i >= 0 && !t?.id ? { ...t, id: free.splice(i, 1)[0].id } : t;
    });
    const body = { variables: {}, secrets: {}, ...suite, triggers, schedule: suite.schedule ?? null };
    res = await call(api, 'PATCH', `/v1/suites/${existing.id}`, body);
    if (res.status !== 200) throw refused(`Suite "${suite.name}" not updated`, res);
    console.log(`Updated suite ${res.body.name} (${res.body.id})`);
  }
  for (const t of res.body.triggers as any[]) console.log(`  ${t.type} hook: ${t.url}${t.environments ? ` (environments: ${t.environments.join(', ')})` : ''}`);
  if (res.body.schedule) console.log(`  schedule: ${res.body.schedule.cron}${res.body.schedule.timezone ? ` (${res.body.schedule.timezone})` : ''}, next run ${res.body.schedule.next ?? '?'}`);
  if (res.body.secrets?.length) console.log(`  secrets: ${res.body.secrets.join(', ')} (stored encrypted)`);
  return 0;
}

async function list(api: Api): Promise<number> {
  const res = await call(api, 'GET', '/v1/suites');
  if (res.status !== 200) throw refused('GET /v1/suites', res);
  const suites = res.body.suites as any[];
  if (!suites.length) console.log('No suites.');
  for (const s of suites) {
    const latest = s.latest ? `${s.latest.status} (${s.latest.createdAt})` : 'never run';
    console.log(`${s.name}\t${s.id}\t${s.plans.length} plan(s)\t${s.schedule ? `cron ${s.schedule.cron}` : 'no schedule'}\tlatest: ${latest}`);
  }
  return 0;
}

const TERMINAL = ['passed', 'failed', 'error', 'cancelled'];

async function run(api: Api, ref: string, o: { 'base-url'?: string; repo?: string; sha?: string; environment?: string; wait?: boolean; timeout?: string }): Promise<number> {
  const suite = await findSuite(api, ref);
  if (!suite) throw new CliError(`No suite "${ref}" (by id or name) for this API key.`);
  const started = await call(api, 'POST', `/v1/suites/${suite.id}/runs`, {
    ...(o['base-url'] ? { baseUrl: o['base-url'] } : {}),
    ...(o.repo ? { repo: o.repo } : {}),
    ...(o.sha ? { sha: o.sha } : {}),
    ...(o.environment ? { environment: o.environment } : {}),
  });
  if (started.status !== 202) throw refused(`Suite "${suite.name}" not started`, started);
  const sr = started.body;
  console.log(`Suite ${suite.name}: suite run ${sr.id} against ${sr.baseUrl}, ${sr.runs.length} run(s)`);
  for (const r of sr.runs) console.log(`  ${r.plan}: ${r.url}`);
  if (!o.wait) return 0;

  const timeoutMs = Number(o.timeout ?? 1800) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new CliError('--timeout must be a number of seconds.');
  const deadline = Date.now() + timeoutMs;
  const done = new Map<string, any>();
  while (done.size < sr.runs.length) {
    if (Date.now() > deadline) {
      console.error(`Gave up waiting after ${timeoutMs / 1000} s: ${sr.runs.length - done.size} run(s) still going.`);
      return 2;
    }
    for (const r of sr.runs) {
      if (done.has(r.runId)) continue;
      const res = await call(api, 'GET', `/v1/runs/${r.runId}`);
      if (res.status !== 200) throw refused(`GET /v1/runs/${r.runId}`, res);
      if (TERMINAL.includes(res.body.status)) {
        done.set(r.runId, res.body);
        const t = res.body.totals;
        console.log(`${res.body.status === 'passed' ? '✓' : '✗'} ${r.plan}: ${res.body.status}${t ? ` — ${t.passed}/${t.cases} cases passed` : ''}`);
      }
    }
    if (done.size < sr.runs.length) await new Promise((r) => setTimeout(r, 1000));
  }
  const runs = sr.runs.map((r: any) => ({ plan: r.plan, run: done.get(r.runId) }));
  const cases = runs.reduce((n: number, x: any) => n + (x.run.totals?.cases ?? 0), 0);
  const passed = runs.reduce((n: number, x: any) => n + (x.run.totals?.passed ?? 0), 0);
  const statuses = runs.map((x: any) => x.run.status as string);
  // Failed cases first, with what went wrong, so a CI log shows it without scrolling.
  for (const { plan, run: rec } of runs) {
    for (const c of rec.report?.cases ?? []) {
      if (c.status !== 'passed') console.log(`  ${plan} / Case ${c.index} ${c.name}: ${c.status}${c.summary ? ` — ${c.summary}` : ''}`);
    }
    if (rec.error) console.log(`  ${plan}: ${rec.error.code}: ${rec.error.message}`);
  }
  const overall = statuses.some((s: string) => s === 'error' || s === 'cancelled') ? 'error' : statuses.includes('failed') ? 'failed' : 'passed';
  console.log(`Suite ${suite.name}: ${overall} — ${passed}/${cases} cases passed in ${runs.length} run(s)`);
  // Like `ariadne run`: 0 all passed, 1 a case failed, 2 a run that could not run (wins over 1: the result is incomplete).
  return overall === 'passed' ? 0 : overall === 'failed' ? 1 : 2;
}

export async function suiteMain(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(() => parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' }, repo: { type: 'string' }, sha: { type: 'string' }, environment: { type: 'string' }, wait: { type: 'boolean' },
      timeout: { type: 'string' }, server: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  }), SUITE_USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values: o, positionals } = parsed;
  const [sub, arg] = positionals;
  if (!['run', 'push', 'list'].includes(sub ?? '') || (sub !== 'list' && !arg)) {
    console.error(SUITE_USAGE);
    return 2;
  }
  const server = o.server ?? process.env.ARIADNE_SERVER;
  if (!server) {
    console.error('Suites live on a running Ariadne: pass --server URL (or set ARIADNE_SERVER), and --token KEY (or ARIADNE_TOKEN).');
    return 2;
  }
  const api: Api = { base: server.replace(/\/$/, ''), token: o.token ?? process.env.ARIADNE_TOKEN };
  try {
    if (sub === 'push') return await push(api, arg);
    if (sub === 'list') return await list(api);
    return await run(api, arg, o);
  } catch (err) {
    console.error(err instanceof CliError ? err.message : `ariadne: ${(err as Error).message}`);
    return 2;
  }
}
