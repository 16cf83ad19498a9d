// Token budgets for page-derived responses (tokens ≈ chars / 4, as everywhere in the
// service). A response that is over budget is cut by a list of steps, each of which
// shortens one list and records what it left out, until it fits or nothing is left
// to cut. Never a silent cut: the caller reports `truncated` and the omitted counts.

export function tokensOf(v: unknown): number {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return Math.ceil((s?.length ?? 0) / 4);
}

/** A step shortens `value` in place; false when it has nothing left to cut. */
export type TrimStep<T> = (value: T) => boolean;

export interface Fitted<T> {
  value: T;
  tokens: number;
  truncated: boolean;
}

export function fitToBudget<T>(value: T, maxTokens: number, measure: (v: T) => number, steps: TrimStep<T>[]): Fitted<T> {
  let tokens = measure(value);
  let truncated = false;
  for (const step of steps) {
    while (tokens > maxTokens) {
      if (!step(value)) break;
      truncated = true;
      tokens = measure(value);
    }
    if (tokens <= maxTokens) break;
  }
  return { value, tokens, truncated };
}

/** Drop the last items of a list (keeping those `keep` says must stay); returns how many were removed. */
export function dropTail<T>(list: T[], fraction = 0.25, keep: (item: T) => boolean = () => false): number {
  const removable = list.map((x, i) => (keep(x) ? -1 : i)).filter((i) => i >= 0);
  if (removable.length === 0) return 0;
  const n = Math.max(1, Math.floor(removable.length * fraction));
  const drop = new Set(removable.slice(-n));
  const kept = list.filter((_, i) => !drop.has(i));
  list.length = 0;
  list.push(...kept);
  return drop.size;
}

export function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(0, max - 1))}…` : s;
}
