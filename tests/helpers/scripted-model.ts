import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A scripted model behind a local HTTP server that speaks both wire protocols a planner
// can be pointed at: OpenAI-compatible chat completions (POST /v1/chat/completions, as
// Ollama, vLLM and LM Studio serve it) and Anthropic's Messages API (POST /v1/messages).
// Requests are validated the way the provider would (key, message order, every tool call
// answered), and answered in the provider's own shapes, including the ways real models
// and gateways misbehave: malformed tool arguments, refusals, answers that never come in
// time, and 429s with Retry-After.
//
// A script is, per case (a substring of the case prompt), one move per assistant turn.
// Arguments may hold { $ref: [role, name?, { after? }] } (the ref of that element in the
// latest snapshot, or in the changes an action answered since), { $url: true } (the first
// URL in the case prompt).

export type Move = (
  | { tool: string; args?: Record<string, unknown> }
  /** OpenAI: arguments that are not JSON. */
  | { tool: string; rawArguments: string }
  | { text: string }
  /** The model declines (OpenAI `refusal`, Anthropic stop_reason "refusal"). */
  | { refuse: string }
) & {
  /** Answer this turn with 429 this many times first, with this Retry-After (seconds or a date). */
  rateLimit?: { times: number; retryAfter?: string };
  /** The first request of this turn is answered only after this many ms (a timeout). */
  delayOnceMs?: number;
  /** Usage this turn reports (else estimated from the request's size). */
  usage?: { input: number; output: number };
};

export interface TurnStat {
  provider: 'openai' | 'anthropic';
  case: string | undefined;
  turn: number;
  at: number;
  inputTokens: number;
  outputTokens: number;
  /** Tool results in the request holding a whole snapshot ("[ref="). */
  snapshots: number;
  /** The tool results sent with this request, in order. */
  results: string[];
}

export interface ScriptedModel {
  url: string;
  stats: {
    requests: number;
    rateLimited: number;
    delayed: number;
    invalid: string[];
    turns: TurnStat[];
    /** Times every request arrived (ms since epoch), for retry timing. */
    arrivals: number[];
  };
  close(): Promise<void>;
}

const estimate = (v: unknown) => Math.ceil(JSON.stringify(v ?? '').length / 4);

/** The ref of `role "name"` in a snapshot ("[ref=eN]") or in an action's changes ("(ref eN)"). */
export function findRef(text: string, role: string, name?: string, after?: string): string | null {
  const lines = text.split('\n');
  let start = 0;
  if (after) {
    start = lines.findIndex((l) => l.includes(after));
    if (start < 0) return null;
  }
  for (let i = start; i < lines.length; i++) {
    const m = /^\s*(?:-\s+|[+~]\s+)?([\w-]+)(?:\s+"((?:[^"\\]|\\.)*)")?.*?(?:\[ref=([a-z0-9]+)\]|\(ref ([a-z0-9]+)\))/i.exec(lines[i]);
    if (m && m[1] === role && (name === undefined || (m[2] ?? '').toLowerCase() === name.toLowerCase())) return m[3] ?? m[4];
  }
  return null;
}

class WireError extends Error {
  constructor(readonly status: number, readonly type: string, message: string) {
    super(message);
  }
}

function validate(provider: 'openai' | 'anthropic', req: IncomingMessage, body: any, apiKey: string): void {
  if (provider === 'anthropic') {
    if (req.headers['x-api-key'] !== apiKey && req.headers.authorization !== `Bearer ${apiKey}`) throw new WireError(401, 'authentication_error', 'invalid x-api-key');
    if (!req.headers['anthropic-version']) throw new WireError(400, 'invalid_request_error', 'anthropic-version header is required');
    if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number') throw new WireError(400, 'invalid_request_error', 'model and max_tokens are required');
    let open: string[] = [];
    body.messages.forEach((m: any, i: number) => {
      if (m.role !== (i % 2 === 0 ? 'user' : 'assistant')) throw new WireError(400, 'invalid_request_error', `messages.${i}.role: roles must alternate, starting with user`);
      const blocks = typeof m.content === 'string' ? [] : m.content;
      if (m.role === 'user') {
        const answered = blocks.filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id);
        if (open.length && (answered.length !== open.length || !answered.every((id: string) => open.includes(id)))) throw new WireError(400, 'invalid_request_error', `messages.${i}: every tool_use needs a tool_result`);
        open = [];
      } else open = blocks.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id);
    });
    if (body.messages.at(-1)?.role !== 'user') throw new WireError(400, 'invalid_request_error', 'the last message must be from the user');
    return;
  }
  if (req.headers.authorization !== `Bearer ${apiKey}`) throw new WireError(401, 'invalid_api_key', 'Incorrect API key provided');
  if (typeof body.model !== 'string' || !Array.isArray(body.messages)) throw new WireError(400, 'invalid_request_error', 'model and messages are required');
  let open: string[] = [];
  body.messages.forEach((m: any, i: number) => {
    if (m.role === 'tool') {
      if (!open.includes(m.tool_call_id)) throw new WireError(400, 'invalid_request_error', `messages[${i}]: tool message answers no pending tool_call`);
      open = open.filter((id) => id !== m.tool_call_id);
      return;
    }
    if (open.length) throw new WireError(400, 'invalid_request_error', `messages[${i}]: tool_calls not answered (${open.join(', ')})`);
    if (m.role === 'assistant') open = (m.tool_calls ?? []).map((c: any) => c.id);
  });
  if (open.length) throw new WireError(400, 'invalid_request_error', 'the last tool_calls were not answered');
}

function conversation(provider: 'openai' | 'anthropic', body: any): { prompt: string; turn: number; results: string[] } {
  const msgs: any[] = body.messages;
  if (provider === 'anthropic') {
    const first = typeof msgs[0].content === 'string' ? msgs[0].content : msgs[0].content.map((b: any) => b.text ?? '').join('\n');
    const results = msgs.filter((m) => m.role === 'user' && Array.isArray(m.content)).flatMap((m) => m.content.filter((b: any) => b.type === 'tool_result').map((b: any) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))));
    return { prompt: first, turn: msgs.filter((m) => m.role === 'assistant').length, results };
  }
  return { prompt: msgs.find((m) => m.role === 'user')?.content ?? '', turn: msgs.filter((m) => m.role === 'assistant').length, results: msgs.filter((m) => m.role === 'tool').map((m) => String(m.content)) };
}

function resolveArgs(args: Record<string, unknown>, results: string[], prompt: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const o = v as { $ref?: [string, string?, { after?: string }?]; $url?: boolean } | null;
    if (o && typeof o === 'object' && Array.isArray(o.$ref)) {
      const [role, name, opts] = o.$ref;
      let ref: string | null = null;
      // The newest result that has it: a snapshot, or the changes an action answered.
      for (const r of [...results].reverse()) if ((ref = findRef(r, role, name, opts?.after))) break;
      out[k] = ref ?? `unresolved-${role}-${name}`;
    } else if (o && typeof o === 'object' && o.$url) out[k] = /https?:\/\/\S+/.exec(prompt)?.[0] ?? 'no-url-in-prompt';
    else out[k] = v;
  }
  return out;
}

export async function startScriptedModel(o: { apiKey?: string; script: Record<string, Move[]> }): Promise<ScriptedModel> {
  const apiKey = o.apiKey ?? 'test-key';
  const stats: ScriptedModel['stats'] = { requests: 0, rateLimited: 0, delayed: 0, invalid: [], turns: [], arrivals: [] };
  const limited = new Map<string, number>();
  const delayed = new Set<string>();
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const c of req) raw += c;
    stats.requests++;
    stats.arrivals.push(Date.now());
    const provider = req.url === '/v1/messages' ? 'anthropic' : req.url === '/v1/chat/completions' ? 'openai' : null;
    const send = (status: number, obj: unknown, headers: Record<string, string> = {}) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(obj));
    };
    if (!provider || req.method !== 'POST') return send(404, { error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } });
    const errorBody = (type: string, message: string) => (provider === 'anthropic' ? { type: 'error', error: { type, message } } : { error: { message, type, param: null, code: type } });
    let body: any;
    try {
      body = JSON.parse(raw);
      validate(provider, req, body, apiKey);
    } catch (e) {
      const w = e instanceof WireError ? e : new WireError(400, 'invalid_request_error', `invalid JSON body: ${(e as Error).message}`);
      stats.invalid.push(w.message);
      return send(w.status, errorBody(w.type, w.message));
    }
    const conv = conversation(provider, body);
    const caseName = Object.keys(o.script).find((name) => conv.prompt.includes(name));
    const moves = caseName ? o.script[caseName] : [];
    const move: Move = moves[conv.turn] ?? { tool: 'complete_case', args: { passed: false, summary: 'script ran out of moves' } };
    const key = `${caseName}#${conv.turn}`;
    if (move.rateLimit && (limited.get(key) ?? 0) < move.rateLimit.times) {
      limited.set(key, (limited.get(key) ?? 0) + 1);
      stats.rateLimited++;
      return send(429, errorBody('rate_limit_error', 'Rate limit reached for requests'), move.rateLimit.retryAfter !== undefined ? { 'retry-after': move.rateLimit.retryAfter } : {});
    }
    if (move.delayOnceMs && !delayed.has(key)) {
      delayed.add(key);
      stats.delayed++;
      await new Promise((r) => setTimeout(r, move.delayOnceMs));
      if (res.destroyed || req.socket.destroyed) return;
    }
    const inputTokens = move.usage?.input ?? estimate(body.messages) + estimate(body.system) + estimate(body.tools);
    const args = 'args' in move || 'tool' in move ? resolveArgs(('args' in move ? move.args : undefined) ?? {}, conv.results, conv.prompt) : {};
    let out: unknown;
    let outputTokens: number;
    if (provider === 'anthropic') {
      const content = 'tool' in move
        ? [{ type: 'tool_use', id: `toolu_${stats.requests}`, name: move.tool, input: args }]
        : [{ type: 'text', text: 'refuse' in move ? move.refuse : move.text }];
      outputTokens = move.usage?.output ?? estimate(content);
      out = {
        id: `msg_${stats.requests}`, type: 'message', role: 'assistant', model: body.model, content,
        stop_reason: 'tool' in move ? 'tool_use' : 'refuse' in move ? 'refusal' : 'end_turn', stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      };
    } else {
      const toolCalls = 'tool' in move ? [{ id: `call_${stats.requests}`, type: 'function', function: { name: move.tool, arguments: 'rawArguments' in move ? move.rawArguments : JSON.stringify(args) } }] : undefined;
      const message = { role: 'assistant', content: 'text' in move ? move.text : null, ...(toolCalls ? { tool_calls: toolCalls } : {}), refusal: 'refuse' in move ? move.refuse : null };
      outputTokens = move.usage?.output ?? estimate(message);
      out = {
        id: `chatcmpl-${stats.requests}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: toolCalls ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
      };
    }
    stats.turns.push({ provider, case: caseName, turn: conv.turn, at: Date.now(), inputTokens, outputTokens, snapshots: conv.results.filter((r) => r.includes('[ref=')).length, results: conv.results });
    send(200, out);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}
