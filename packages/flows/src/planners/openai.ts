import OpenAI from 'openai';
import type { FetchLike } from '@ariadne/egress';
import { ModelPlanner, notAPlannerReply, type ToolDef, type ToolResult, type TurnResult } from './model.js';

// The OpenAI-compatible planner: chat completions with tools (the `openai` package).
// The base URL is configurable, so Ollama, vLLM, LM Studio and other compatible
// servers work. Tool arguments arrive as a JSON string: one that does not parse is
// answered with an error for the model to fix, never run.

type Msg = Record<string, unknown>;

export class OpenAIPlanner extends ModelPlanner {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private messages: Msg[] = [];
  private pending: Msg | null = null;

  constructor(o: { model: string; apiKey: string; baseUrl?: string; maxRetries?: number; requestTimeoutMs?: number; fetch?: FetchLike }) {
    super(o.model);
    // Retries are the planner's own (ModelPlanner.turnWithRetry: bounded, Retry-After honoured).
    this.client = new OpenAI({ apiKey: o.apiKey, ...(o.baseUrl ? { baseURL: o.baseUrl } : {}), ...(o.fetch ? { fetch: o.fetch as never } : {}), maxRetries: 0, timeout: o.requestTimeoutMs ?? 120_000 });
    if (o.maxRetries !== undefined) this.retry.maxRetries = o.maxRetries;
  }

  protected begin(prompt: string): void {
    this.messages = [{ role: 'user', content: prompt }];
  }

  protected async turn(system: string, tools: ToolDef[], signal: AbortSignal): Promise<TurnResult> {
    const res = await this.client.chat.completions.create({
      model: this.model,
      messages: [{ role: 'system', content: system }, ...this.messages] as never,
      tools: tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
      tool_choice: 'auto',
    }, { signal });
    if (!res || !Array.isArray(res.choices)) throw notAPlannerReply('a chat completion', res);
    const msg = res.choices[0]?.message;
    const toolCalls = (msg?.tool_calls ?? []).filter((c) => c.type === 'function') as { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    const calls = toolCalls.map((c) => {
      let args: Record<string, unknown> | null = null;
      try {
        const parsed = JSON.parse(c.function.arguments || '{}') as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
      } catch {
        args = null;
      }
      return { id: c.id, name: c.function.name, args, rawArgs: c.function.arguments };
    });
    this.pending = { role: 'assistant', content: msg?.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    const refusal = (msg as { refusal?: unknown } | undefined)?.refusal;
    return {
      calls,
      text: msg?.content ?? '',
      inputTokens: res.usage?.prompt_tokens ?? 0,
      outputTokens: res.usage?.completion_tokens ?? 0,
      ...(typeof refusal === 'string' && refusal && !calls.length ? { refusal } : {}),
    };
  }

  protected record(_turn: TurnResult, results: ToolResult[]): void {
    if (this.pending) this.messages.push(this.pending);
    for (const r of results) this.messages.push({ role: 'tool', tool_call_id: r.id, content: r.isError ? `ERROR: ${r.content}` : r.content });
  }

  protected replaceResult(id: string, content: string): void {
    for (const m of this.messages) if (m.role === 'tool' && m.tool_call_id === id) m.content = content;
  }

  protected nudge(text: string): void {
    this.messages.push({ role: 'user', content: text });
  }
}
