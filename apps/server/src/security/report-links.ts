import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { withRedis } from '@ariadne/cluster';
import { AppError } from '@ariadne/schema';

// Signed, expiring links to a run's HTML report (what a commit status or a Slack message
// points at, opened by people who hold no API key). A link is
//   /v1/runs/<id>/report?exp=<unix seconds>&sig=<hex HMAC-SHA256>
// over (purpose, run id, tenant, exp). The purpose binds a signature to ONE thing: the
// report page ("report") or one screenshot of that run ("artifact:<name>"), so a report
// link opens the page and the screenshots it embeds, and nothing else (not the JSON
// report, not another run, not another artifact).
//
// The key: with SECRETS_KEY configured, an HKDF derivation of it (operator-held, the same
// on every node, never stored in Redis); without it, 32 random bytes created once with
// SET NX in Redis, so every node of a cluster shares the first one written and links
// survive restarts. Rotating SECRETS_KEY (or wiping Redis, in the second case) voids
// every outstanding link.

export const REPORT_LINK_DEFAULT_TTL = 7 * 24 * 3600;
export const REPORT_LINK_MAX_TTL = 30 * 24 * 3600;
export const REPORT_LINK_MIN_TTL = 60;
/** Screenshots embedded in a page viewed with an API key are signed for this long. */
export const KEYED_VIEW_ARTIFACT_TTL = 6 * 3600;

const SIG = /^[0-9a-f]{64}$/;

/** live: a session's live view (security/view-tokens.ts), with the session id in place of the run id. */
export type LinkPurpose = 'report' | `artifact:${string}` | 'live';

export class ReportLinks {
  private key: Promise<Buffer> | null = null;

  constructor(private readonly redis: Redis, private readonly prefix: string, private readonly secretsKey: Buffer | null) {}

  private getKey(): Promise<Buffer> {
    if (!this.key) {
      this.key = this.secretsKey
        ? Promise.resolve(Buffer.from(hkdfSync('sha256', this.secretsKey, Buffer.alloc(0), 'ariadne report links v1', 32)))
        : this.sharedRandomKey();
      // A Redis failure is not remembered: the next request tries again.
      this.key.catch(() => { this.key = null; });
    }
    return this.key;
  }

  private async sharedRandomKey(): Promise<Buffer> {
    const name = `${this.prefix}report-links:key`;
    return withRedis(async () => {
      await this.redis.set(name, randomBytes(32).toString('hex'), 'NX');
      const hex = await this.redis.get(name);
      if (!hex || !/^[0-9a-f]{64}$/.test(hex)) throw new AppError('internal_error', 'The report-link key in Redis is missing or malformed.');
      return Buffer.from(hex, 'hex');
    });
  }

  async sign(purpose: LinkPurpose, runId: string, tenant: string, exp: number): Promise<string> {
    const key = await this.getKey();
    return createHmac('sha256', key).update(`ariadne-link:v1\n${purpose}\n${runId}\n${tenant}\n${exp}`).digest('hex');
  }

  /** True when sig is this link's signature (constant-time compare); expiry is checked apart. */
  async matches(purpose: LinkPurpose, runId: string, tenant: string, exp: number, sig: string): Promise<boolean> {
    if (!SIG.test(sig)) return false;
    const expected = Buffer.from(await this.sign(purpose, runId, tenant, exp), 'hex');
    return timingSafeEqual(expected, Buffer.from(sig, 'hex'));
  }

  /** The query string (`exp=...&sig=...`) that opens `purpose` of this run until exp. */
  async query(purpose: LinkPurpose, runId: string, tenant: string, exp: number): Promise<string> {
    return `exp=${exp}&sig=${await this.sign(purpose, runId, tenant, exp)}`;
  }

  /** A signed link to the run's HTML report, and when it stops working. */
  async signedReportUrl(runId: string, tenant: string, opts: { ttlSeconds?: number; publicBase: string; now?: number }): Promise<{ url: string; expiresAt: string; exp: number }> {
    const ttl = Math.min(Math.max(Math.floor(opts.ttlSeconds ?? REPORT_LINK_DEFAULT_TTL), REPORT_LINK_MIN_TTL), REPORT_LINK_MAX_TTL);
    const exp = Math.floor((opts.now ?? Date.now()) / 1000) + ttl;
    const base = opts.publicBase.replace(/\/+$/, '');
    return {
      url: `${base}/v1/runs/${encodeURIComponent(runId)}/report?${await this.query('report', runId, tenant, exp)}`,
      expiresAt: new Date(exp * 1000).toISOString(),
      exp,
    };
  }
}

/** What a request opened with a valid signed link may see (set by the auth hook). */
export interface SignedLinkGrant {
  runId: string;
  exp: number;
}

/**
 * Checks a keyless GET on a signed-link route: returns the run's tenant when `exp`/`sig`
 * sign this exact purpose for this run; otherwise throws 401 invalid_signature (missing,
 * malformed, tampered, another run's or another purpose's signature) or 401
 * signature_expired (a genuine signature whose time is over). The signature is checked
 * before the expiry, so "expired" is only ever said of a link this service issued.
 */
export async function verifySignedLink(
  links: ReportLinks,
  tenantOfRun: (runId: string) => Promise<string | null>,
  request: FastifyRequest,
  route: string,
  now = Date.now(),
): Promise<{ tenant: string; grant: SignedLinkGrant }> {
  const params = (request.params ?? {}) as { id?: string; name?: string };
  const q = queryOf(request.url);
  const expRaw = q.get('exp') ?? '';
  const sig = q.get('sig') ?? '';
  const runId = params.id ?? '';
  const purpose: LinkPurpose = route.endsWith('/report') ? 'report' : `artifact:${params.name ?? ''}`;
  const invalid = () => new AppError('invalid_signature', 'This report link is not valid: its signature does not match (a changed, truncated or other run\'s link). Ask for a new link, or send Authorization: Bearer <key>.');
  if (!/^\d{1,12}$/.test(expRaw) || !SIG.test(sig) || !/^[\w-]{1,64}$/.test(runId)) throw invalid();
  const exp = Number(expRaw);
  const tenant = await tenantOfRun(runId);
  // An unknown run answers exactly like a bad signature: a link reveals nothing by itself.
  if (!tenant || !(await links.matches(purpose, runId, tenant, exp, sig))) throw invalid();
  if (exp * 1000 <= now) {
    throw new AppError('signature_expired', `This report link expired at ${new Date(exp * 1000).toISOString()}. Ask for a new link, or send Authorization: Bearer <key>.`, { expiredAt: new Date(exp * 1000).toISOString() });
  }
  return { tenant, grant: { runId, exp } };
}

function queryOf(url: string): URLSearchParams {
  const i = url.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : url.slice(i + 1));
}
