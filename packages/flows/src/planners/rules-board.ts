import type { AriaNode } from '@ariadne/page';
import type { PlanStep } from '../plan.js';
import type { AskContext, CaseTools, FlowAction } from '../tools.js';
import { textsIn } from './rules-verbs-tree.js';

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

const textOf = (n: AriaNode): string => (typeof n === 'string' ? n : String(n.name || (typeof n.text === 'string' ? n.text : '') || ''));

/** The first text a container shows (its title), depth-first, skipping controls. */
function firstText(n: AriaNode): string {
  if (typeof n === 'string') return n.trim();
  if (n.role === 'heading' || (n.name && !['button', 'link', 'img', 'generic', 'group', 'list', 'listitem', 'region', 'article'].includes(n.role))) return textOf(n).trim();
  if (['button', 'link', 'img', 'checkbox', 'textbox'].includes(n.role)) return '';
  if (typeof n.text === 'string' && n.text.trim()) return n.text.trim();
  for (const k of n.children ?? []) {
    const t = firstText(k);
    if (t) return t;
  }
  return '';
}

// A column's title may carry its card count ("Review 3", "Done (2)"): the title is the words.
const title = (t: string) => t.replace(/\s*[(·]?\s*\d+\s*\)?$/, '').trim();

/**
 * The board around the card: the containers side by side (siblings) of which one holds the
 * card, each led by a short title of its own — the columns, in order. A card's own container
 * is led by the card's title, so that level is passed over.
 */
function columnsAround(tree: AriaNode[], card: string): { titles: string[]; at: number } | null {
  let found: { titles: string[]; at: number } | null = null;
  const walk = (nodes: AriaNode[]): boolean => {
    const els = nodes.filter((n): n is Exclude<AriaNode, string> => typeof n !== 'string');
    for (const [i, n] of els.entries()) {
      if (!textsIn(n).some((t) => t.trim() === card)) continue;
      // Deepest first: the card's own containers are inside.
      if (walk(n.children ?? [])) return true;
      const titles = els.map((e) => title(firstText(e)));
      const lead = titles[i];
      if (els.length >= 2 && lead && lead !== card && titles.every((t) => t && t.length <= 40) && new Set(titles).size === titles.length) {
        found = { titles, at: i };
        return true;
      }
      return false;
    }
    return false;
  };
  walk(tree);
  return found;
}

const wordsOfText = (t: string) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Where the card goes: a column title, or why there is none. */
export function boardTarget(tree: AriaNode[], item: string, to: BoardStep): { ok: true; from: string; column: string } | { ok: false; why: string } {
  const all: string[] = [];
  for (const n of tree) textsIn(n, all);
  const showing = (want: string[]) => [...new Set(all.map((t) => t.trim()).filter((t) => want.length > 0 && t.length <= 120 && want.every((w) => wordsOfText(t).includes(w))))];
  // "the help centre card": the words, else the words without the kind of thing it is.
  let cards = showing(wordsOf(item));
  if (!cards.length) cards = showing(wordsOf(item.replace(/\s+(?:card|task|ticket|item|story|issue)$/i, '')));
  if (cards.length !== 1) return { ok: false, why: cards.length ? `${cards.length} cards show "${item}" (${cards.slice(0, 3).map((c) => `"${c}"`).join(', ')})` : `no card shows "${item}"` };
  const card = cards[0];
  const board = columnsAround(tree, card);
  if (!board) return { ok: false, why: `"${card}" is not on a board of titled columns` };
  const { titles, at } = board;
  const current = titles[at];
  if (to === 'start') {
    const started = titles.filter((h) => STARTED.test(h));
    if (started.length !== 1) return { ok: false, why: started.length ? `several columns say work is under way (${started.join(', ')})` : `no column of the board (${titles.map((t) => `"${t}"`).join(', ')}) is where work is in progress` };
    if (current === started[0]) return { ok: false, why: `"${card}" is in "${current}" already` };
    return { ok: true, from: card, column: started[0] };
  }
  const next = to === 'back' ? titles[at - 1] : titles[at + 1];
  if (!next) return { ok: false, why: `"${card}" is in "${current}", the ${to === 'back' ? 'first' : 'last'} column` };
  return { ok: true, from: card, column: next };
}

export async function runBoardMove(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, item: string, to: BoardStep): Promise<boolean> {
  const t = boardTarget((await tools.snapshot(step.role)).tree, item, to);
  if (!t.ok) {
    await tools.fail(step.role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): ${t.why}; nothing was moved.`, details: { item, to } }, 'drag');
    return false;
  }
  return act({ action: 'drag', description: t.from, targetDescription: t.column }, { ...ask, part: `move "${t.from}" to "${t.column}"` });
}
