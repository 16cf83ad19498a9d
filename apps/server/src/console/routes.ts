import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '@ariadne/schema';
import { SAFE_ARTIFACT, type RunRecord, type RunStatus } from '@ariadne/flows';
import { bullPrefix } from '@ariadne/cluster';
import { launchSuite, SuiteScheduler, SuiteStore, type Suite } from '@ariadne/suites';
import { makeAuthenticator } from '../plugins/auth.js';
import { limitsFor } from '../config.js';
import { ReportLinks, KEYED_VIEW_ARTIFACT_TTL } from '../security/report-links.js';
import { createRunService, quotaSubmitter } from '../routes/runs.js';
import { baseUrlOf, createNotifier } from '../routes/suites.js';
import { checkCsrf, csrfOf, PRE_COOKIE, sameOrigin, SIGN_IN_COOKIE, type ConsoleContext } from './csrf.js';
import { ConsoleData, isTerminal, type RunFilter } from './data.js';
import { consoleCsp, errorBody, page, type Shell } from './layout.js';
import { cookieHeader, cookiesOf, randomToken, sameToken, sha256 } from './session-store.js';
import { liveViewHref } from './live-link.js';
import {
  pressureBody, runBody, runsBody, sessionBody, sessionsBody, signInBody, suiteBody, suiteRunBody, suitesBody, type PressureView,
} from './pages.js';

// The console's pages. Every route is a console route (config.console): the hook in
// index.ts set req.tenant from the sign-in cookie, or left req.consoleSignIn null, in which
// case the page answers with the sign-in page. Lists are paginated and bounded.

const PAGE_SIZE = { suites: 25, history: 25, runs: 25, sessions: 25 };
const MAX_PAGE = 1000;
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })) });
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

class ConsoleError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export const consoleRoutes = (ctx: ConsoleContext) => async (app: FastifyInstance) => {
  const { deps, keyed } = ctx;
  const { config } = deps;
  const authenticate = makeAuthenticator(config.apiKeys);
  const suites = new SuiteStore(deps.redis, config.redisPrefix, config.suites.secretsKey);
  const { store: runStore, runs: runService } = createRunService(deps);
  const submitter = quotaSubmitter(deps, runStore, runService);
  const data = new ConsoleData(deps.redis, config.redisPrefix, suites, runStore);
  const links = new ReportLinks(deps.redis, config.redisPrefix, config.suites.secretsKey);
  const scheduler = new SuiteScheduler(() => {
    const conn = deps.redis.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false });
    conn.on('error', () => {});
    return conn;
  }, bullPrefix(config.redisPrefix));
  const notifier = createNotifier({ ...deps, logger: app.log }, suites, runStore);
  app.addHook('onClose', async () => {
    await runService.close();
    await scheduler.close();
    await notifier.idle();
  });

  // Forms post urlencoded; parsed here only (the API keeps refusing it as an unsupported type).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Secure whenever the browser is on https: TLS here, a TLS proxy saying so (the flag only
  // narrows where the cookie goes, so a lying header harms no one), or an https PUBLIC_URL.
  const secure = (req: FastifyRequest) => req.protocol === 'https'
    || String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim() === 'https'
    || config.notify.publicUrl.startsWith('https:');

  async function send(req: FastifyRequest, reply: FastifyReply, shell: Omit<Shell, 'nonce' | 'tenant' | 'openMode' | 'csrf'>, status = 200) {
    const nonce = randomBytes(16).toString('base64');
    const signedIn = !keyed || !!req.consoleSignIn;
    const html = page({ ...shell, nonce, tenant: signedIn ? req.tenant : null, openMode: !keyed, csrf: signedIn ? await csrfOf(ctx, req) : '' });
    return reply.status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', consoleCsp(nonce))
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(html);
  }

  // Errors of console pages are pages (the API's JSON errors stay the API's).
  app.setErrorHandler(async (err, req, reply) => {
    let status = 500;
    let code = 'internal_error';
    let message = 'The console could not show this page.';
    if (err instanceof ConsoleError) ({ status, code, message } = err);
    else if (err instanceof AppError) ({ status, code, message } = err);
    else if ((err as { validation?: unknown }).validation) {
      status = 400;
      code = 'invalid_request';
      message = `Invalid ${(err as { validationContext?: string }).validationContext ?? 'request'}: ${(err as Error).message}`;
    } else if ((err as { statusCode?: number }).statusCode && (err as { statusCode: number }).statusCode < 500) {
      status = (err as { statusCode: number }).statusCode;
      code = status === 413 ? 'payload_too_large' : 'invalid_request';
      message = (err as Error).message;
    } else req.log.error({ err }, 'console page failed');
    if (status >= 500 && code !== 'internal_error') req.log.warn({ code }, message);
    return send(req, reply, { title: code, body: errorBody(status, code, message) }, status);
  });

  /** Signed in (or open mode)? Else the sign-in page, and the caller stops. */
  async function signedIn(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (!keyed || req.consoleSignIn) return true;
    const next = req.url.startsWith('/console/') && req.method === 'GET' ? req.url : undefined;
    await signInPage(req, reply, undefined, next, 401);
    return false;
  }

  async function signInPage(req: FastifyRequest, reply: FastifyReply, error?: string, next?: string, status = 200) {
    // Double-submit token of the sign-in form: a cookie only this origin's page can pair.
    const pre = randomToken();
    reply.header('set-cookie', cookieHeader(PRE_COOKIE, pre, { maxAge: 3600, secure: secure(req), path: '/console/sign-in' }));
    return send(req, reply, { title: 'Sign in', section: 'sign-in', body: signInBody({ csrf: pre, ...(error ? { error } : {}), ...(next ? { next } : {}) }) }, status);
  }

  /** A state-changing form: the sign-in's CSRF token and this origin, else 403. */
  async function requireCsrf(req: FastifyRequest) {
    const body = (req.body ?? {}) as Record<string, string>;
    if (!(await checkCsrf(ctx, req, body._csrf))) {
      throw new ConsoleError(403, 'csrf_invalid', 'This form was not sent by a console page of this sign-in (missing or wrong CSRF token, or another origin). Reload the page and try again.');
    }
  }

  const reportHref = async (rec: RunRecord) => {
    const base = `/v1/runs/${encodeURIComponent(rec.id)}/report`;
    if (!keyed) return base;
    return `${base}?${await links.query('report', rec.id, rec.tenant, Math.floor(Date.now() / 1000) + KEYED_VIEW_ARTIFACT_TTL)}`;
  };
  const artifactHref = async (rec: RunRecord, name: string) => {
    const base = `/v1/runs/${encodeURIComponent(rec.id)}/artifacts/${encodeURIComponent(name)}`;
    if (!keyed) return base;
    return `${base}?${await links.query(`artifact:${name}`, rec.id, rec.tenant, Math.floor(Date.now() / 1000) + KEYED_VIEW_ARTIFACT_TTL)}`;
  };
  const nextRun = async (s: Suite) => (s.schedule ? scheduler.next(s.id).then((n) => (n ? new Date(n).toISOString() : null), () => null) : null);
  const pageOf = (req: FastifyRequest) => (req.query as { page?: number }).page ?? 1;
  // HTML pages for people, not API: left out of openapi.yaml and the generated clients
  // (the summary says what each page is for whoever reads the route table).
  const opts = (summary: string, schema: Record<string, unknown> = {}) => ({
    config: { console: true },
    schema: { hide: true, summary, ...schema },
  });

  // -- entry, sign-in, sign-out ------------------------------------------------------

  const home = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!(await signedIn(req, reply))) return reply;
    return reply.redirect('/console/suites', 303);
  };
  app.get('/', opts('The web console: to the suites (or the sign-in page)'), home);
  app.get('/console', opts('The web console: to the suites (or the sign-in page)'), home);

  app.get('/console/sign-in', opts('Console: the sign-in page (an API key, once)'), async (req, reply) => {
    if (!keyed || req.consoleSignIn) return reply.redirect('/console/suites', 303);
    return signInPage(req, reply);
  });

  app.post('/console/sign-in', opts('Console: sign in with an API key (form); sets the httpOnly sign-in cookie', { body: Type.Object({ key: Type.String({ maxLength: 1000 }), _csrf: Type.String({ maxLength: 200 }), next: Type.Optional(Type.String({ maxLength: 2000 })) }) }), async (req, reply) => {
    if (!keyed) return reply.redirect('/console/suites', 303);
    const body = req.body as { key: string; _csrf: string; next?: string };
    const pre = cookiesOf(req.headers.cookie).get(PRE_COOKIE);
    if (!sameOrigin(req) || !sameToken(body._csrf, pre)) {
      throw new ConsoleError(403, 'csrf_invalid', 'This sign-in form was not sent by the console\'s own sign-in page. Reload it and try again.');
    }
    const key = body.key.trim();
    const tenant = key ? authenticate(`Bearer ${key}`) : null;
    if (!tenant) return signInPage(req, reply, 'That key is not valid here.', body.next, 401);
    const { id } = await ctx.signIns.create(tenant, sha256(key));
    reply.header('set-cookie', [
      cookieHeader(SIGN_IN_COOKIE, id, { maxAge: ctx.signIns.ttlSeconds, secure: secure(req) }),
      cookieHeader(PRE_COOKIE, '', { maxAge: 0, secure: secure(req), path: '/console/sign-in' }),
    ]);
    // Only a console path of this origin (never //host or a scheme).
    const next = body.next && /^\/console\/[\w\-/?=&%.]*$/.test(body.next) && !body.next.startsWith('//') ? body.next : '/console/suites';
    return reply.redirect(next, 303);
  });

  app.post('/console/sign-out', opts('Console: sign out (form, CSRF token); revokes the sign-in', { body: Type.Object({ _csrf: Type.String({ maxLength: 200 }) }) }), async (req, reply) => {
    if (!keyed) return reply.redirect('/console/suites', 303);
    if (!req.consoleSignIn) return reply.redirect('/console/sign-in', 303);
    await requireCsrf(req);
    await ctx.signIns.revoke(req.consoleSignIn.id);
    reply.header('set-cookie', cookieHeader(SIGN_IN_COOKIE, '', { maxAge: 0, secure: secure(req) }));
    return reply.redirect('/console/sign-in', 303);
  });

  // -- suites ---------------------------------------------------------------------------

  app.get('/console/suites', opts('Console: the suites, with status, last run, strip of the last 30 runs, pass and flaky rates, next scheduled run', { querystring: PageQuery }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const pageNo = pageOf(req);
    const size = PAGE_SIZE.suites;
    const list = await suites.list(req.tenant, Math.min(pageNo * size + 1, MAX_PAGE * size));
    const slice = list.slice((pageNo - 1) * size, pageNo * size);
    const rows = await Promise.all(slice.map(async (s) => ({ ...(await data.summary(s)), next: await nextRun(s) })));
    return send(req, reply, { title: 'Suites', section: 'suites', body: suitesBody({ rows, pageNo, hasNext: list.length > pageNo * size, total: list.length > pageNo * size ? list.length - 1 : list.length }) });
  });

  app.get('/console/suites/:id', opts('Console: a suite, its plans, triggers (no secrets), history and Run now', { params: IdParams, querystring: PageQuery }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const s = await suites.get(req.tenant, (req.params as { id: string }).id);
    const pageNo = pageOf(req);
    const size = PAGE_SIZE.history;
    const summary = await data.summary(s);
    const all = await data.statuses(await suites.runs(s.id, Math.min(pageNo * size + 1, 100)));
    const history = all.slice((pageNo - 1) * size, pageNo * size);
    const base = baseUrlOf(req);
    return send(req, reply, {
      title: s.name,
      section: 'suites',
      body: suiteBody({
        summary,
        next: await nextRun(s),
        triggers: s.triggers.map((t) => ({ id: t.id, type: t.type, ...(t.environments ? { environments: t.environments } : {}), url: `${base}/v1/hooks/${t.id}` })),
        history,
        pageNo,
        hasNext: all.length > pageNo * size,
        csrf: await csrfOf(ctx, req),
      }),
    });
  });

  app.post('/console/suites/:id/run', opts('Console: run a suite now (form, CSRF token); redirects to the suite run, followed live', { params: IdParams, body: Type.Object({ _csrf: Type.String({ maxLength: 200 }), baseUrl: Type.Optional(Type.String({ maxLength: 2048 })) }) }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    await requireCsrf(req);
    const s = await suites.get(req.tenant, (req.params as { id: string }).id);
    const raw = ((req.body as { baseUrl?: string }).baseUrl ?? '').trim();
    if (raw) {
      let u: URL | null = null;
      try { u = new URL(raw); } catch { /* below */ }
      if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new ConsoleError(400, 'invalid_request', `Base URL "${raw.slice(0, 200)}" is not an http(s) URL.`);
    }
    const run = await launchSuite(suites, submitter, s, {
      ...(raw ? { baseUrl: raw } : {}),
      origin: baseUrlOf(req),
      onRecorded: (r) => notifier.launched(r),
      trigger: { type: 'manual' },
    });
    return reply.redirect(`/console/suites/${encodeURIComponent(s.id)}/runs/${encodeURIComponent(run.id)}`, 303);
  });

  app.get('/console/suites/:id/runs/:runId', opts('Console: one suite run and its runs, followed live until they finish', { params: Type.Object({ id: Type.String({ maxLength: 64 }), runId: Type.String({ maxLength: 64 }) }) }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const p = req.params as { id: string; runId: string };
    const s = await suites.get(req.tenant, p.id);
    const got = await data.suiteRun(s, p.runId);
    if (!got) throw new ConsoleError(404, 'not_found', `No run ${p.runId} of suite ${s.name}.`);
    const rows = await Promise.all(got.run.runs.map(async (r, i) => {
      const rec = got.records[i];
      return { plan: r.plan, runId: r.runId, rec, reportHref: rec && rec.tenant === req.tenant ? await reportHref(rec) : null };
    }));
    return send(req, reply, { title: `Suite run of ${s.name}`, section: 'suites', body: suiteRunBody({ suiteId: s.id, suiteName: s.name, run: got.run, status: got.status, rows }) });
  });

  // -- runs -----------------------------------------------------------------------------

  const RunsQuery = Type.Object({
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
    status: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('queued'), Type.Literal('running'), Type.Literal('passed'), Type.Literal('failed'), Type.Literal('error'), Type.Literal('cancelled')])),
    suite: Type.Optional(Type.String({ maxLength: 64 })),
    environment: Type.Optional(Type.String({ maxLength: 100 })),
    text: Type.Optional(Type.String({ maxLength: 200 })),
  });
  app.get('/console/runs', opts('Console: the runs, newest first, filtered by status, suite, environment and text', { querystring: RunsQuery }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const q = req.query as { page?: number; status?: string; suite?: string; environment?: string; text?: string };
    const filter: RunFilter = {
      ...(q.status ? { status: q.status as RunStatus } : {}),
      ...(q.suite ? { suite: q.suite } : {}),
      ...(q.environment?.trim() ? { environment: q.environment.trim() } : {}),
      ...(q.text?.trim() ? { text: q.text.trim() } : {}),
    };
    const pageNo = q.page ?? 1;
    const [list, tenantSuites] = await Promise.all([data.runList(req.tenant, filter, pageNo, PAGE_SIZE.runs), suites.list(req.tenant, 100)]);
    const rows = await Promise.all(list.rows.map(async (rec) => ({ rec, href: isTerminal(rec.status) ? await reportHref(rec) : `/console/runs/${encodeURIComponent(rec.id)}` })));
    return send(req, reply, { title: 'Runs', section: 'runs', body: runsBody({ rows, filter, pageNo, hasNext: list.hasNext, suites: tenantSuites.map((s) => ({ id: s.id, name: s.name })), scanned: list.scanned }) });
  });

  app.get('/console/runs/:id', opts("Console: a run's steps from its event stream, live, and its latest screenshot", { params: IdParams }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const rec = await runStore.getFor(req.tenant, (req.params as { id: string }).id);
    const events = await runStore.events(rec.id, 0, 2000);
    let shot: { href: string; step: number } | null = null;
    for (let i = events.length - 1; i >= 0 && !shot; i--) {
      const e = events[i];
      if (e.type === 'step' && e.step.screenshot && SAFE_ARTIFACT.test(e.step.screenshot)) shot = { href: await artifactHref(rec, e.step.screenshot), step: e.step.n };
    }
    const suite = rec.request.suite ? await suites.load(rec.request.suite.id).catch(() => null) : null;
    return send(req, reply, {
      title: `Run ${rec.id.slice(0, 8)}`,
      section: 'runs',
      body: runBody({ rec, events, reportHref: await reportHref(rec), ...(suite && suite.tenant === req.tenant ? { suiteName: suite.name } : {}) }, shot),
    });
  });

  // -- sessions -------------------------------------------------------------------------

  app.get('/console/sessions', opts('Console: the live sessions with their roles, tabs, age and node', { querystring: PageQuery }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const pageNo = pageOf(req);
    const size = PAGE_SIZE.sessions;
    const all = (await deps.sessions.list(req.tenant)).filter((s) => s.status === 'active').sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const rows = all.slice((pageNo - 1) * size, pageNo * size);
    return send(req, reply, { title: 'Sessions', section: 'sessions', body: sessionsBody({ rows, pageNo, hasNext: all.length > pageNo * size, now: Date.now() }) });
  });

  app.get('/console/sessions/:id', opts('Console: a session and its live view beside the event log', { params: IdParams }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const s = await deps.sessions.get(req.tenant, (req.params as { id: string }).id);
    const liveHref = await liveViewHref({ tenant: req.tenant, sessionId: s.id, links: keyed ? links : undefined });
    return send(req, reply, { title: `Session ${s.id.slice(0, 8)}`, section: 'sessions', body: sessionBody({ s, liveHref, csrf: await csrfOf(ctx, req), now: Date.now() }) });
  });

  app.post('/console/sessions/:id/end', opts('Console: end a session (form, CSRF token)', { params: IdParams, body: Type.Object({ _csrf: Type.String({ maxLength: 200 }) }) }), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    await requireCsrf(req);
    const id = (req.params as { id: string }).id;
    if (!deps.sessions.isLocal(id)) {
      const s = await deps.sessions.get(req.tenant, id);
      throw new ConsoleError(409, 'session_elsewhere', `Session ${s.id} lives on node ${s.node}: end it there, or with DELETE /v1/sessions/${s.id} on any node.`);
    }
    await deps.sessions.delete(req.tenant, id);
    return reply.redirect('/console/sessions', 303);
  });

  // A mistyped console address is a console page too (not the API's JSON 401).
  app.get('/console/*', opts('Console: no such page'), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    throw new ConsoleError(404, 'not_found', `No console page ${req.url.split('?')[0].slice(0, 200)}.`);
  });

  // -- pressure -------------------------------------------------------------------------

  app.get('/console/pressure', opts("Console: the pool at a glance and the tenant's quotas"), async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    const stats = deps.pool.stats();
    const view: PressureView = {
      node: config.nodeId,
      running: deps.sessions.liveCount,
      leased: stats.leased,
      capacity: stats.capacity,
      queued: -1,
      clusterLeased: -1,
      clusterCapacity: -1,
      nodeCount: -1,
      quota: [],
      nodes: null,
    };
    if (deps.cluster) {
      const [q, l, alive] = await Promise.all([deps.cluster.admission.queued(), deps.cluster.membership.leases.count(), deps.cluster.membership.nodes.alive()]).catch(() => [-1, -1, null] as const);
      view.queued = q;
      view.clusterLeased = l;
      if (alive) {
        view.clusterCapacity = alive.reduce((n, x) => n + x.capacity, 0);
        view.nodeCount = alive.length;
        // Which nodes, and where, is the operator's business: listed in open mode only (whoever
        // runs the service); with API keys every tenant sees the count, as /v1/pressure gives it.
        if (!keyed) view.nodes = alive.slice(0, 100).map((n) => ({ id: n.id, url: n.url, capacity: n.capacity, leased: n.leased, sessions: n.sessions, heartbeatAt: n.heartbeatAt }));
      }
    }
    const l = limitsFor(config.quotas, req.tenant);
    const u = deps.quotas ? await deps.quotas.usage(req.tenant).catch(() => null) : null;
    view.quota = [
      { label: 'Sessions', limit: l.maxSessions, used: u?.sessions ?? null },
      { label: 'Browser contexts', limit: l.maxContexts, used: u?.contexts ?? null },
      { label: 'Queued session requests', limit: l.maxQueued, used: null },
      { label: 'Runs queued or running', limit: l.maxRuns, used: u?.runs ?? null },
      { label: 'New sessions per minute', limit: l.sessionsPerMinute, used: u?.sessionsLastMinute ?? null },
    ];
    return send(req, reply, { title: 'Pressure', section: 'pressure', body: pressureBody(view) });
  });
};
