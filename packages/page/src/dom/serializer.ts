import type { PageState } from '../page-state.js';
import { Bridge, type World } from '../bridge/bridge.js';
import { FRAME_MARK } from '../bridge/protocol.js';
import { tokensOf } from '../explore/budget.js';
import { newListId, refsOfListed } from '../targeting/selector.js';

// The frame/shadow DOM serializer of seed 003. Each frame is walked in its own isolated
// world (one call per frame); the host splices child frames in where their [FRAME]
// block sits, passing each child its frame selector chain so its ↳ PATH lines carry
// the frameSelector that reaches it. The result is capped with an explicit marker.

export interface DomStats {
  elements: number;
  interactive: number;
  shadowRoots: number;
  customElements: number;
  frames: number;
  skippedZeroSize: number;
}

export interface DomResponse {
  url: string;
  title: string;
  dom: string;
  chars: number;
  tokens: number;
  truncated: boolean;
  maxChars: number;
  /** Counts over the whole page (frames included), also past the cap. */
  stats: DomStats;
}

interface FrameResult {
  lines: string[];
  chars: number;
  truncated: boolean;
  stats: DomStats;
  frames: { token: string; selector: string }[];
}

const DEFAULT_MAX_CHARS = 24_000;

const REF_MARK = '\u0002';

export async function serializeDom(state: PageState, opts: { maxTokens?: number; maxText?: number } = {}): Promise<DomResponse> {
  state.assertNoDialog();
  const maxChars = opts.maxTokens ? opts.maxTokens * 4 : DEFAULT_MAX_CHARS;
  const bridge = Bridge.for(state);
  const worlds = await bridge.allWorlds();
  const main = worlds.find((w) => !w.parentId) ?? worlds[0];
  const stats: DomStats = { elements: 0, interactive: 0, shadowRoots: 0, customElements: 0, frames: 0, skippedZeroSize: 0 };
  let truncated = false;

  const walk = async (world: World, chain: string, depth: number): Promise<string[]> => {
    const children = worlds.filter((w) => w.parentId === world.frameId);
    const owners: string[] = [];
    const tokens: string[] = [];
    for (const c of children) {
      const objectId = await bridge.frameOwner(c, world).catch(() => null);
      if (objectId) {
        owners.push(objectId);
        tokens.push(c.frameId);
      }
    }
    let res: FrameResult;
    const listId = newListId();
    try {
      res = (await bridge.call<FrameResult>(world, 'serialize', { frameSelector: chain, childTokens: tokens, maxChars, maxText: opts.maxText ?? 60, listId }, owners)) as FrameResult;
    } finally {
      await bridge.release(world, owners);
    }
    // Every interactive element's line carries its snapshot ref, to act on what was found.
    const refs = res.lines.some((l) => l.includes(REF_MARK)) ? await refsOfListed(state, world, listId) : [];
    res.lines = res.lines.map((l) => (l.includes(REF_MARK) ? l.replace(/ ?\u0002(\d+)\u0002/g, (_m, k: string) => (refs[Number(k)] ? ` ref=${refs[Number(k)]}` : '')) : l));
    for (const k of Object.keys(stats) as (keyof DomStats)[]) stats[k] += res.stats[k];
    if (res.truncated) truncated = true;
    const out: string[] = [];
    for (const line of res.lines) {
      const at = line.indexOf(FRAME_MARK);
      if (at < 0) {
        out.push(line);
        continue;
      }
      const token = line.slice(at + FRAME_MARK.length);
      const child = children.find((c) => c.frameId === token);
      const sel = res.frames.find((f) => f.token === token)?.selector;
      if (!child || !sel || depth > 10) {
        out.push(`${line.slice(0, at)}(frame content not available)`);
        continue;
      }
      const indent = line.slice(0, at);
      const inner = await walk(child, chain ? `${chain} >> ${sel}` : sel, depth + 1).catch(() => ['(frame content not available)']);
      for (const l of inner) out.push(indent + l);
    }
    return out;
  };

  const lines = await walk(main, '', 0);
  let dom = '';
  for (const line of lines) {
    if (dom.length + line.length + 1 > maxChars) {
      truncated = true;
      break;
    }
    dom += `${line}\n`;
  }
  if (truncated) {
    dom += `[TRUNCATED: capped at ${maxChars} chars; the page has ${stats.elements} rendered elements, ${stats.interactive} interactive. Raise maxTokens, or zoom in with inspect/dom?selector=…]\n`;
  }
  const body: DomResponse = { url: state.page.url(), title: await state.page.title().catch(() => ''), dom, chars: dom.length, tokens: 0, truncated, maxChars, stats };
  body.tokens = tokensOf(body);
  return body;
}
