import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SAFE_ARTIFACT } from '@ariadne/flows';
import { runStoreFor } from './runs.js';
import { ErrorResponse } from '@ariadne/schema';
import type { ServerDeps } from '../deps.js';
import { reportPage } from '../report/report-page.js';
import { publicBaseUrl } from '../security/public-url.js';
import { KEYED_VIEW_ARTIFACT_TTL, REPORT_LINK_DEFAULT_TTL, REPORT_LINK_MAX_TTL, REPORT_LINK_MIN_TTL, type ReportLinks } from '../security/report-links.js';

// GET /v1/runs/:id/report: the run's report as a page for people (what a commit status
// links to); POST /v1/runs/:id/report-link: a signed, expiring URL of that page for
// people without a key. The page is static HTML under a CSP that allows inline style
// and same-origin images only; its screenshots are signed URLs, so the page works the
// same whether it was opened with a key or with a link.

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const SignedLinkQuery = Type.Object({
  exp: Type.Optional(Type.Integer({ minimum: 0, description: 'Signed link: expiry (unix seconds).' })),
  sig: Type.Optional(Type.String({ maxLength: 64, description: 'Signed link: hex HMAC-SHA256 (from POST /v1/runs/:id/report-link). Opens this page without a key until exp.' })),
});

/** No script, no external resource: inline style (the page's own) and same-origin images. */
export const REPORT_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const reportRoutes = (deps: ServerDeps, links: ReportLinks): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const store = runStoreFor(deps.redis, deps.config);
  const keyed = deps.config.apiKeys.size > 0;

  app.get('/v1/runs/:id/report', {
    schema: {
      tags: ['runs'],
      summary: 'The run\'s report as an HTML page for people: the failing step and its diagnostics first, then cases and steps with screenshots (key, or a signed link)',
      params: IdParams,
      querystring: SignedLinkQuery,
      response: { 200: Type.String({ description: 'text/html' }), 401: ErrorResponse, 404: ErrorResponse },
    },
  }, async (req, reply) => {
    const rec = await store.getFor(req.tenant, req.params.id);
    const id = encodeURIComponent(rec.id);
    // Screenshots: signed for as long as the link that opened the page, or a few hours
    // when a key did (an <img> cannot send the header). Not needed in open mode.
    const artifactExp = req.signedLink?.exp ?? Math.floor(Date.now() / 1000) + KEYED_VIEW_ARTIFACT_TTL;
    const shots = new Map<string, string>();
    for (const c of rec.report?.cases ?? []) {
      for (const s of c.steps) {
        if (!s.screenshot || !SAFE_ARTIFACT.test(s.screenshot) || shots.has(s.screenshot)) continue;
        const url = `/v1/runs/${id}/artifacts/${encodeURIComponent(s.screenshot)}`;
        shots.set(s.screenshot, keyed ? `${url}?${await links.query(`artifact:${s.screenshot}`, rec.id, rec.tenant, artifactExp)}` : url);
      }
    }
    const html = reportPage(rec, {
      screenshot: (name) => shots.get(name) ?? `/v1/runs/${id}/artifacts/${encodeURIComponent(name)}`,
      trace: (name) => `/v1/runs/${id}/artifacts/${encodeURIComponent(name)}`,
      junit: `/v1/runs/${id}/junit`,
      spec: `/v1/runs/${id}/spec`,
      json: `/v1/runs/${id}`,
      ...(req.signedLink ? { signedUntil: new Date(req.signedLink.exp * 1000).toISOString() } : {}),
    });
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', REPORT_CSP)
      .header('x-content-type-options', 'nosniff')
      // The link's signature must not travel on in a Referer header.
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .send(html);
  });

  app.post('/v1/runs/:id/report-link', {
    schema: {
      tags: ['runs'],
      summary: 'A signed, expiring URL of the run\'s HTML report, for people without an API key (commit statuses, chat)',
      params: IdParams,
      body: Type.Optional(Type.Object({
        ttlSeconds: Type.Optional(Type.Integer({ minimum: REPORT_LINK_MIN_TTL, maximum: REPORT_LINK_MAX_TTL, description: `How long the link works (default ${REPORT_LINK_DEFAULT_TTL} s, 7 days; at most 30 days).` })),
      }, { additionalProperties: false })),
      response: {
        200: Type.Object({ url: Type.String(), expiresAt: Type.String({ description: 'ISO time the link stops working.' }) }),
        400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse,
      },
    },
  }, async (req) => {
    const rec = await store.getFor(req.tenant, req.params.id);
    const body = (req.body ?? {}) as { ttlSeconds?: number };
    const link = await links.signedReportUrl(rec.id, rec.tenant, { ttlSeconds: body.ttlSeconds ?? REPORT_LINK_DEFAULT_TTL, publicBase: publicBaseUrl(deps.config, deps.cluster?.nodeUrl) });
    return { url: link.url, expiresAt: link.expiresAt };
  });
};
