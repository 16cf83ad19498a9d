import type { AriaNode } from '@ariadne/page';
import type { PlanStep } from '../plan.js';
import type { AskContext, CaseTools, FlowAction } from '../tools.js';

// A card on a board (kanban: columns titled by headings, cards under them) moved in a person's
// words: "Start work on the release notes" (to the column where work is in progress), "Send
// Cookie banner copy back a step" / "Move it on a step" (the column before or after the one it
// is in). The column is read off the page — its headings in order, and the last one above the
// card — then the move is the same drag as "Move X to In progress". A board without such a
// column, or words two cards share, move nothing.

type Act = (body: FlowAction, a?: AskContext) => Promise<boolean>;

export type BoardStep = 'start' | 'back' | 'forward';

/** Column titles where work is under way, across boards' wording. */
const STARTED = /^(?:in[ -]?progress|doing|started|in development|working on it|wip|ongoing|active)\b/i;

export function parseBoardMove(step: string): { item: string; to: BoardStep } | null {
  const s = step.trim().replace(/[.!]+$/, '');
  let m = /^(?:start|begin)\s+(?:work(?:ing)?\s+on|on)\s+(.+)$/i.exec(s);
  if (m) return { item: m[1], to: 'start' };
  m = /^(?:send|move|put|take|push)\s+(.+?)\s+back\s+(?:a|one)\s+(?:step|column|stage|list|lane)$/i.exec(s);
  if (m) return { item: m[1], to: 'back' };
  m = /^(?:send|move|push|take)\s+(.+?)\s+(?:forward|on|along|ahead)\s+(?:a|one)\s+(?:step|column|stage|list|lane)$/i.exec(s);
  if (m) return { item: m[1], to: 'forward' };
  return null;
}

const wordsOf = (s: string) => s.toLowerCase().replace(/^(?:the|a|an|my|our)\s+/, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The page in reading order: column headings and texts. */
function readingOrder(tree: AriaNode[]): { heading: boolean; text: string }[] {
  const out: { heading: boolean; text: string }[] = [];
  const walk = (nodes: AriaNode[]) => {
    for (const n of nodes) {
      if (typeof n === 'string') { out.push({ heading: false, text: n }); continue; }
      if (n.role === 'heading') { out.push({ heading: true, text: String(n.name ?? '') }); continue; }
      if (n.name && !['button', 'link', 'img'].includes(n.role)) out.push({ heading: false, text: String(n.name) });
      if (typeof n.text === 'string') out.push({ heading: false, text: n.text });
      walk(n.children ?? []);
    }
  };
  walk(tree);
  return out;
}

/** Where the card goes: a column title, or why there is none. */
export function boardTarget(tree: AriaNode[], item: string, to: BoardStep): { ok: true; from: string; column: string } | { ok: false; why: string } {
  const seq = readingOrder(tree);
  // A column's title may carry its card count ("Review 3"): the title is the words.
  const title = (t: string) => t.replace(/\s*\(?\d+\)?$/, '').trim();
  const headings = seq.filter((x) => x.heading).map((x) => title(x.text));
  const showing = (want: string[]) => seq.map((x, i) => ({ x, i })).filter(({ x }) => !x.heading && want.length > 0 && want.every((w) => wordsOf(x.text).includes(w)) && x.text.length <= 120);
  // "the help centre card": the words, else the words without the kind of thing it is.
  let hits = showing(wordsOf(item));
  if (!hits.length) hits = showing(wordsOf(item.replace(/\s+(?:card|task|ticket|item|story|issue)$/i, '')));
  const cards = [...new Set(hits.map((h) => h.x.text.trim()))];
  if (cards.length !== 1) return { ok: false, why: cards.length ? `${cards.length} cards show "${item}" (${cards.slice(0, 3).map((c) => `"${c}"`).join(', ')})` : `no card shows "${item}"` };
  const at = hits[0].i;
  const above = seq.slice(0, at).filter((x) => x.heading).map((x) => title(x.text));
  const current = above[above.length - 1];
  if (to === 'start') {
    const started = [...new Set(headings.filter((h) => STARTED.test(h)))];
    if (started.length !== 1) return { ok: false, why: started.length ? `several columns say work is under way (${started.join(', ')})` : 'no column on the board is where work is in progress (In progress, Doing, ...)' };
    if (current === started[0]) return { ok: false, why: `"${cards[0]}" is in "${current}" already` };
    return { ok: true, from: cards[0], column: started[0] };
  }
  if (!current) return { ok: false, why: `no column title above "${cards[0]}"` };
  const k = headings.indexOf(current);
  const next = to === 'back' ? headings[k - 1] : headings[k + 1];
  if (!next) return { ok: false, why: `"${cards[0]}" is in "${current}", the ${to === 'back' ? 'first' : 'last'} column` };
  return { ok: true, from: cards[0], column: next };
}

export async function runBoardMove(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, item: string, to: BoardStep): Promise<boolean> {
  const t = boardTarget((await tools.snapshot(step.role)).tree, item, to);
  if (!t.ok) {
    await tools.fail(step.role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): ${t.why}; nothing was moved.`, details: { item, to } }, 'drag');
    return false;
  }
  return act({ action: 'drag', description: t.from, targetDescription: t.column }, { ...ask, part: `move "${t.from}" to "${t.column}"` });
}
