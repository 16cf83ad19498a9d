import type { TSchema } from 'typebox';
import type { LiveRole, LiveSession } from '@ariadne/pool';
import type { PageState } from '@ariadne/page';
import type { ServerDeps } from '../deps.js';

// A page operation is defined once and served twice: as a REST route under
// /v1/sessions/:id/roles/:role/<path> and as a WebSocket op `{ op: name, params }`.
// Its query and body schemas validate both; its handler does the work on one tab.

export interface OpContext {
  deps: ServerDeps;
  session: LiveSession;
  role: LiveRole;
  state: PageState;
}

export interface OpInput {
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  params: Record<string, string>;
}

/** A binary result: REST sends the bytes, the WebSocket sends base64. */
export interface BinaryResult {
  binary: Buffer;
  contentType: string;
}

export interface PageOp {
  /** Op name on the WebSocket: snapshot, action, explore.container ... */
  name: string;
  method: 'GET' | 'POST';
  /** Path under /v1/sessions/:id/roles/:role, e.g. /snapshot or /network/:requestId. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  query?: TSchema;
  body?: TSchema;
  /** Extra path parameters beyond id and role (validated as strings). */
  pathParams?: string[];
  response: TSchema;
  /** Error statuses the op can answer with (documented in openapi.yaml). */
  errors?: number[];
  run(ctx: OpContext, input: OpInput): Promise<unknown | BinaryResult>;
}

export function isBinary(v: unknown): v is BinaryResult {
  return typeof v === 'object' && v !== null && Buffer.isBuffer((v as BinaryResult).binary);
}

export function defineOps(ops: PageOp[]): PageOp[] {
  const names = new Set<string>();
  for (const op of ops) {
    if (names.has(op.name)) throw new Error(`duplicate op ${op.name}`);
    names.add(op.name);
  }
  return ops;
}
