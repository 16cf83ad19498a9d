import Anthropic from '@anthropic-ai/sdk';
import type { FetchLike } from '@ariadne/egress';
import { ModelPlanner, notAPlannerReply, type ToolDef, type ToolResult, type TurnResult } from './model.js';

// The Anthropic planner: Messages API with tool use (@anthropic-ai/sdk). 429 and 5xx
// answers are retried by ModelPlanner (bounded, honouring retry-after), not the SDK.

type Msg = { role: 'user' | 'assistant'; content: unknown };

export class AnthropicPlanner extends ModelPlanner {
  readonly name = 'anthropic';
  private readonly client: Anthropic;
  private messages: Msg[] = [];

  constructor(o: { model: string; apiKey: string; baseUrl?: string; maxRetries?: number; maxTokens?: number; requestTimeoutMs?: number; fetch?: FetchLike }) {
    super(o.model);
    // Retries are the planner's own (ModelPlanner.turnWithRetry: bounded, Retry-After honoured).
    this.client = new Anthropic({ apiKey: o.apiKey, ...(o.baseUrl ? { baseURL: o.baseUrl } : {}), ...(o.fetch ? { fetch: o.fetch as never } : {}), maxRetries: 0, timeout: o.requestTimeoutMs ?? 120_000 });
    if (o.maxRetries !== undefined) this.retry.maxRetries = o.maxRetries;
    this.maxTokens = o.maxTokens ?? 1024;
  }

  private readonly maxTokens: number;

  protected begin(prompt: string): void {
    this.messages = [{ role: 'user', content: prompt }];
  }

  protected async turn(system: string, tools: ToolDef[], signal: AbortSignal): Promise<TurnResult> {
    const res = await this.client.messages.create({
      model: this.model,
      max_tokens: this.maxTokens,
      system,
      tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as never })),
      messages: this.messages as never,
    }, { signal });
    if (!res || !Array.isArray(res.content) || !res.usage) throw notAPlannerReply('a Messages API reply', res);
    const calls = res.content
      .filter((b): b is Extract<typeof b, { type: 'tool_use' }> => b.type === 'tool_use')
      .map((b) => ({
        id: b.id,
        name: b.name,
        args: b.input && typeof b.input === 'object' && !Array.isArray(b.input) ? (b.input as Record<string, unknown>) : null,
        rawArgs: JSON.stringify(b.input),
      }));
    const text = res.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');
    // The assistant turn goes back verbatim (tool_use ids must match the results).
    this.pending = res.content;
    const refused = (res.stop_reason as string) === 'refusal' && !calls.length;
    return { calls, text, inputTokens: res.usage.input_tokens, outputTokens: res.usage.output_tokens, ...(refused ? { refusal: text } : {}) };
  }

  private pending: unknown = null;

  protected record(_turn: TurnResult, results: ToolResult[]): void {
    this.messages.push({ role: 'assistant', content: this.pending });
    if (results.length) {
      this.messages.push({
        role: 'user',
        content: results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.content, ...(r.isError ? { is_error: true } : {}) })),
      });
    }
  }

  protected replaceResult(id: string, content: string): void {
    for (const m of this.messages) {
      if (m.role !== 'user' || !Array.isArray(m.content)) continue;
      for (const b of m.content as { type: string; tool_use_id?: string; content?: unknown }[]) if (b.type === 'tool_result' && b.tool_use_id === id) b.content = content;
    }
  }

  protected nudge(text: string): void {
    this.messages.push({ role: 'user', content: text });
  }
}
