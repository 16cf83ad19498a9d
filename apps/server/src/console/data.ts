import type { Redis } from 'ioredis';
import { withRedis } from '@ariadne/cluster';
import { TERMINAL, type RunRecord, type RunStatus, type RunStore } from '@ariadne/flows';
import { suiteStatusOf, type Suite, type SuiteRun, type SuiteStatus, type SuiteStore } from '@ariadne/suites';

// What the console pages read, through the stores the API uses (never over HTTP). Every
// read is bounded: a suite's history is its last SUITE_RUN_HISTORY suite runs, the runs
// list looks at the tenant's RUNS_SCANNED most recent runs. A finished suite run's status
// never changes, so it is remembered under a key of the console's own and later pages read
// one short string instead of every run record behind it.

export const STRIP_LENGTH = 30;
export const RUNS_SCANNED = 1000;
const DAY = 86_400_000;

export interface SuiteRunRow {
  run: SuiteRun;
  status: SuiteStatus;
}

export interface SuiteSummary {
  suite: Suite;
  /** Newest first, at most STRIP_LENGTH. */
  strip: SuiteRunRow[];
  latest: SuiteRunRow | null;
  passRate7: number | null;
  flakyRate7: number | null;
  passRate30: number | null;
  flakyRate30: number | null;
  /** Terminal suite runs the 30-day rates were computed from. */
  counted30: number;
}

export class ConsoleData {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly suites: SuiteStore,
    readonly runs: RunStore,
  ) {}

  private statusKey(suiteRunId: string) {
    return `${this.prefix}console:suiterun-status:${suiteRunId}`;
  }

  /** Run records by id (null: expired), in one round trip per 200. */
  async records(ids: string[]): Promise<Map<string, RunRecord | null>> {
    const out = new Map<string, RunRecord | null>();
    const unique = [...new Set(ids)].filter((id) => /^[\w-]{1,64}$/.test(id));
    for (let i = 0; i < unique.length; i += 200) {
      const chunk = unique.slice(i, i + 200);
      const raws = await withRedis(() => this.redis.mget(chunk.map((id) => `${this.runs.prefix}run:${id}`)));
      raws.forEach((raw, j) => out.set(chunk[j], raw ? (JSON.parse(raw) as RunRecord) : null));
    }
    return out;
  }

  /** Status of each suite run: remembered ones read as is, the others from their run records. */
  async statuses(runs: SuiteRun[]): Promise<SuiteRunRow[]> {
    if (!runs.length) return [];
    const known = await withRedis(() => this.redis.mget(runs.map((r) => this.statusKey(r.id))));
    const missing = runs.filter((_, i) => !known[i]);
    const recs = await this.records(missing.flatMap((r) => r.runs.map((x) => x.runId)));
    const fresh = new Map<string, SuiteStatus>();
    const m = this.redis.multi();
    for (const r of missing) {
      const status = suiteStatusOf(r.runs.map((x) => recs.get(x.runId) ?? null));
      fresh.set(r.id, status);
      if (status !== 'queued' && status !== 'running') m.set(this.statusKey(r.id), status, 'EX', 31 * 86_400);
    }
    // Remembering is not on the page's path (an fsync'ing Redis would make the first view wait for it).
    if (missing.length) void withRedis(() => m.exec()).catch(() => {});
    return runs.map((r, i) => ({ run: r, status: (known[i] as SuiteStatus | null) ?? fresh.get(r.id)! }));
  }

  async summary(suite: Suite, historyLimit = 100, now = Date.now()): Promise<SuiteSummary> {
    const history = await this.statuses(await this.suites.runs(suite.id, historyLimit));
    const rates = (days: number) => {
      const within = history.filter((h) => Date.parse(h.run.createdAt) >= now - days * DAY && h.status !== 'queued' && h.status !== 'running' && h.status !== 'cancelled');
      if (!within.length) return { pass: null, flaky: null, n: 0 };
      const passed = within.filter((h) => h.status === 'passed' || h.status === 'flaky').length;
      const flaky = within.filter((h) => h.status === 'flaky').length;
      return { pass: passed / within.length, flaky: flaky / within.length, n: within.length };
    };
    const r7 = rates(7);
    const r30 = rates(30);
    return {
      suite,
      strip: history.slice(0, STRIP_LENGTH),
      latest: history[0] ?? null,
      passRate7: r7.pass,
      flakyRate7: r7.flaky,
      passRate30: r30.pass,
      flakyRate30: r30.flaky,
      counted30: r30.n,
    };
  }

  /** One suite run with its runs' records, or null when it is not this suite's. */
  async suiteRun(suite: Suite, id: string): Promise<{ run: SuiteRun; status: SuiteStatus; records: (RunRecord | null)[] } | null> {
    const run = await this.suites.suiteRun(id);
    if (!run || run.suiteId !== suite.id) return null;
    const recs = await this.records(run.runs.map((r) => r.runId));
    const records = run.runs.map((r) => recs.get(r.runId) ?? null);
    return { run, status: suiteStatusOf(records), records };
  }

  /** Raw run records by id (null: expired), in one round trip per 200. */
  private async raws(ids: string[]): Promise<(string | null)[]> {
    return withRedis(() => this.redis.mget(ids.map((id) => `${this.runs.prefix}run:${id}`)));
  }

  /**
   * The tenant's runs, newest first, filtered, one page of them. Looks at the
   * RUNS_SCANNED most recent runs; `hasNext` says whether another page matches. A record
   * is parsed only when it can match: its raw JSON must contain what the filters ask for
   * (a necessary condition), and the runs of earlier pages are only counted.
   */
  async runList(tenant: string, f: RunFilter, pageNo: number, pageSize: number): Promise<{ rows: RunRecord[]; hasNext: boolean; scanned: number }> {
    const ids = await withRedis(() => this.redis.zrevrange(`${this.runs.prefix}runs:${tenant}`, 0, RUNS_SCANNED - 1));
    const skip = (pageNo - 1) * pageSize;
    const rows: RunRecord[] = [];
    let matched = 0;
    const text = f.text?.toLowerCase();
    // Strings JSON writes as they are (no quote, backslash or control character) can be looked for in the raw record.
    const plain = (x: string | undefined) => x !== undefined && !/["\\\u0000-\u001f]/.test(x);
    const needles = [
      ...(f.status ? [`"status":"${f.status}"`] : []),
      ...(plain(f.suite) ? [f.suite!] : []),
      ...(plain(f.environment) ? [f.environment!] : []),
    ];
    const filtered = Boolean(f.status || f.suite || f.environment || text);
    for (let i = 0; i < ids.length && rows.length <= pageSize; i += 200) {
      const chunk = ids.slice(i, i + 200);
      const raws = await this.raws(chunk);
      for (const raw of raws) {
        if (!raw || needles.some((n) => !raw.includes(n))) continue;
        if (text && plain(text) && !raw.toLowerCase().includes(text)) continue;
        // Unfiltered, a run of an earlier page needs no parsing to be counted (tenant checked below for the rest).
        if (!filtered && matched < skip && raw.includes(`"tenant":${JSON.stringify(tenant)}`)) {
          matched++;
          continue;
        }
        const rec = JSON.parse(raw) as RunRecord;
        if (rec.tenant !== tenant) continue;
        if (f.status && rec.status !== f.status) continue;
        if (f.suite && rec.request.suite?.id !== f.suite) continue;
        if (f.environment && rec.request.suite?.trigger?.environment !== f.environment) continue;
        if (text && !matchesText(rec, text)) continue;
        if (matched++ < skip) continue;
        rows.push(rec);
        if (rows.length > pageSize) break;
      }
    }
    return { rows: rows.slice(0, pageSize), hasNext: rows.length > pageSize, scanned: ids.length };
  }
}

export interface RunFilter {
  status?: RunStatus;
  suite?: string;
  environment?: string;
  text?: string;
}

/** Case names, step texts, the suite's plan name. */
function matchesText(rec: RunRecord, text: string): boolean {
  if (rec.request.suite?.plan.toLowerCase().includes(text)) return true;
  for (const c of rec.report?.cases ?? []) {
    if (c.name.toLowerCase().includes(text)) return true;
    for (const s of c.steps) if (s.asked.toLowerCase().includes(text)) return true;
  }
  return false;
}

export const isTerminal = (s: string): boolean => (TERMINAL as string[]).includes(s);
