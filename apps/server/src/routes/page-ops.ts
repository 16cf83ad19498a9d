import type { FastifyPluginAsync } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { ErrorResponse, RoleName } from '@ariadne/schema';
import { toAppError } from '@ariadne/page';
import type { ServerDeps } from '../deps.js';
import { ALL_OPS, isBinary, type PageOp } from '../ops/index.js';
import { withoutTypedValues } from '../security/internal-errors.js';

// Serves every page operation as REST under /v1/sessions/:id/roles/:role/...
// Commands on one tab run in order (the tab's queue); different roles run concurrently.

export const BASE = '/v1/sessions/:id/roles/:role';

function paramsSchema(op: PageOp): TSchema {
  const extra = Object.fromEntries((op.pathParams ?? []).map((p) => [p, Type.String({ maxLength: 128 })]));
  return Type.Object({ id: Type.String({ maxLength: 64 }), role: RoleName, ...extra });
}

export const pageOpRoutes = (deps: ServerDeps, ops: PageOp[] = ALL_OPS): FastifyPluginAsync => async (app) => {
  for (const op of ops) {
    const errors = Object.fromEntries((op.errors ?? [400, 404, 409, 410]).map((s) => [s, ErrorResponse]));
    app.route({
      method: op.method,
      url: `${BASE}${op.path}`,
      schema: {
        tags: [op.tag],
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        operationId: op.name,
        params: paramsSchema(op),
        ...(op.query ? { querystring: op.query } : {}),
        ...(op.body ? { body: op.body } : {}),
        response: { 200: op.response, ...errors },
      },
      handler: async (req, reply) => {
        const params = req.params as Record<string, string>;
        const query = (req.query ?? {}) as Record<string, unknown>;
        const result = await runOp(deps, op, {
          tenant: req.tenant,
          id: params.id,
          role: params.role,
          page: query.page as string | undefined,
          input: { query, body: (req.body ?? {}) as Record<string, unknown>, params },
        });
        if (isBinary(result)) return reply.header('content-type', result.contentType).send(result.binary);
        return result;
      },
    });
  }
};

export interface OpCall {
  tenant: string;
  id: string;
  role: string;
  page?: string;
  input: { query: Record<string, unknown>; body: Record<string, unknown>; params: Record<string, string> };
}

/** Run one op on its tab, after whatever already runs there. Shared by REST and WebSocket. */
export async function runOp(deps: ServerDeps, op: PageOp, call: OpCall): Promise<unknown> {
  const session = await deps.sessions.use(call.tenant, call.id);
  const role = session.role(call.role);
  return role.run(call.page, async (state) => {
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      return await op.run({ deps, session, role, state }, call.input);
    } catch (err) {
      const e = withoutTypedValues(toAppError(err, { state }), call.input.body);
      outcome = e.code;
      throw e;
    } finally {
      deps.metrics?.opDuration.observe({ op: op.name, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }, { op: op.name, deadlineMs: deadlineFor(deps, op, call.input) });
}

/**
 * The deadline of one operation, queue wait included: OPERATION_TIMEOUT_MS, or longer when
 * the operation's own timeout is (navigation, snapshot, an action's timeoutMs) so that its
 * own, more precise `timeout` error comes first. Past it: 504 operation_timeout.
 */
export function deadlineFor(deps: ServerDeps, op: PageOp, input: OpCall['input']): number {
  const t = deps.config.timeouts;
  const body = input.body as { action?: string; timeoutMs?: number };
  let own = 0;
  if (op.name === 'snapshot') own = t.snapshotMs;
  else if (op.name === 'action') {
    own = Math.max(t.actionMs + t.describeWaitMs, typeof body.timeoutMs === 'number' ? body.timeoutMs : 0);
    if (['navigate', 'back', 'forward', 'reload'].includes(String(body.action))) own = Math.max(own, t.navigationMs);
  }
  return Math.max(deps.config.limits.operationTimeoutMs, own + 5000);
}
