import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { diffInWords, type ActionEffect, type DiffLike } from '@ariadne/schema';
import { AriadneCallError } from './backend.js';

// Compact text for models, from the service's answers. Every output stays bounded:
// the service bounds what it derives from the page (maxTokens), and these helpers cap
// whatever else they print (diff lines, error details, run summaries).

export const MAX_DETAILS_CHARS = 4000;
export const MAX_DIFF_LINES = 60;

export const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… [cut: ${s.length - max} more chars]`;
}

/** A tool error carrying the stable code, the hint and the diagnostics. */
export function errorResult(err: unknown): CallToolResult {
  if (err instanceof AriadneCallError) {
    const { hint, ...rest } = err.details as { hint?: unknown } & Record<string, unknown>;
    const lines = [`Error ${err.code}${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}`];
    if (hint) lines.push(`Hint: ${String(hint)}`);
    if (Object.keys(rest).length) lines.push(`Diagnostics: ${clip(JSON.stringify(rest), MAX_DETAILS_CHARS)}`);
    return {
      isError: true,
      content: [{ type: 'text', text: lines.join('\n') }],
      _meta: { 'ariadne/error': { code: err.code, status: err.status, message: err.message, details: err.details } },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { isError: true, content: [{ type: 'text', text: `Error internal_error: ${message}` }], _meta: { 'ariadne/error': { code: 'internal_error', message } } };
}

const q = (s: unknown) => JSON.stringify(String(s));

/** A diff in words: added nodes with their text, changes as "text "A" → "B"" (the service's summary). */
export function renderDiff(d: DiffLike): string[] {
  return diffInWords(d, { maxLines: MAX_DIFF_LINES, more: (n) => `… ${n} more changes (browser_snapshot for the page)` });
}

/** The action's effect in words: what reacted, or that nothing did. */
export function effectInWords(e: ActionEffect | undefined): string | null {
  if (!e) return null;
  if (!e.changed) return 'Effect: none — the page did not react (no DOM, URL, focus, value or network change). Check the target or try another way.';
  const parts: string[] = [];
  if (e.navigated) parts.push(`navigated${e.url ? ` to ${e.url}` : ''}`);
  if (e.dom) parts.push(`${e.dom} DOM change${e.dom === 1 ? '' : 's'}`);
  if (e.values) parts.push('a field value changed');
  if (e.focus) parts.push('focus moved');
  if (e.requests) parts.push(`${e.requests} request${e.requests === 1 ? '' : 's'}`);
  return `Effect: ${parts.join(', ') || 'the page changed'}`;
}

/** One action's answer as a few lines: what was done, to what, what changed. */
export function renderAction(r: any): string {
  const lines: string[] = [];
  const t = r.target;
  const by = t ? ` (${t.resolvedBy === 'ref' ? `ref ${t.ref}` : `${t.resolvedBy}${t.ref ? ` → ${t.ref}` : ''}`}${t.locator ? `; ${t.locator}` : ''})` : '';
  const settle = r.settle ? ` · settle ${r.settle.state} ${r.settle.waitedMs} ms` : '';
  lines.push(`${r.action} ok${by} · ${r.durationMs} ms${settle}${r.navigated ? ' · navigated' : ''}`);
  lines.push(`Page: ${r.pageId} ${q(r.title ?? '')} ${r.url}`);
  const effect = effectInWords(r.effect);
  if (effect) lines.push(effect);
  if (r.dialog) lines.push(`Dialog open: ${r.dialog.type} ${q(r.dialog.message ?? '')} — answer with browser_handle_dialog`);
  if (r.newPages?.length) lines.push(`New tabs: ${r.newPages.map((p: any) => `${p.id ?? p.pageId} ${p.url ?? ''}`).join(', ')}`);
  if (r.result !== undefined && r.action !== 'screenshot') lines.push(`Result: ${clip(JSON.stringify(r.result), 1000)}`);
  const snap = r.snapshot;
  if (snap?.diff) {
    const d = renderDiff(snap.diff);
    lines.push(d.length ? `Changes since the last snapshot (${snap.diff.unchanged} refs unchanged):` : 'No change in the accessibility tree.');
    lines.push(...d);
  } else if (typeof snap?.snapshot === 'string') {
    lines.push('Snapshot:', snap.snapshot);
  }
  return lines.join('\n');
}

/** A snapshot answer (format=text) with its header. */
export function renderSnapshot(s: any): string {
  const head = `Page: ${s.pageId} ${q(s.title ?? '')} ${s.url}\nSnapshot ${s.snapshotId}: ${s.tokens} tokens, ${s.totalRefs} refs${s.truncated ? ' (truncated to the budget: fold lines say what was left out; page with ref+offset, or raise maxTokens)' : ''}`;
  if (s.diff) {
    const d = renderDiff(s.diff);
    return `${head}\n${d.length ? d.join('\n') : 'No change since the previous snapshot.'}`;
  }
  return `${head}\n${typeof s.snapshot === 'string' ? s.snapshot : JSON.stringify(s.snapshot)}`;
}

/** An answer that carries a text form (format=text), or else compact JSON, bounded. */
export function renderFacts(body: any, maxChars = 24_000): string {
  if (typeof body === 'string') return clip(body, maxChars);
  if (typeof body?.text === 'string') return clip(body.text, maxChars);
  return clip(JSON.stringify(body), maxChars);
}

/** A flow run as a short report: status, counts, and each case with its failing step. */
export function renderRun(run: any): string {
  const lines = [`Run ${run.id}: ${run.status}${run.error ? ` (${typeof run.error === 'string' ? run.error : run.error.code ?? JSON.stringify(run.error)})` : ''}`];
  const report = run.report;
  const totals = report?.totals ?? report?.counts;
  if (totals) lines.push(`Totals: ${Object.entries(totals).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const c of (report?.cases ?? []).slice(0, 30)) {
    lines.push(`- ${c.status === 'passed' || c.status === 'flaky' ? '✓' : c.status === 'failed' ? '✗' : '·'} ${c.name ?? c.id} (${c.status}${c.durationMs ? `, ${c.durationMs} ms` : ''})`);
    const bad = (c.steps ?? []).find((s: any) => s.status === 'failed' || s.error);
    if (bad) lines.push(`    failed at: ${clip(String(bad.text ?? bad.step ?? bad.action ?? ''), 200)} — ${clip(String(bad.error?.message ?? bad.error?.code ?? JSON.stringify(bad.error)), 400)}`);
    if (c.error && !bad) lines.push(`    error: ${clip(typeof c.error === 'string' ? c.error : c.error.message ?? JSON.stringify(c.error), 400)}`);
  }
  if (run.links) lines.push(`Links: ${Object.entries(run.links).map(([k, v]) => `${k} ${v}`).join(' · ')}`);
  return lines.join('\n');
}
