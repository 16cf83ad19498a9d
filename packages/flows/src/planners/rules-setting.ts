import type { AriaNode } from '@ariadne/page';
import { controlsOf, textsIn, type Ctl } from './rules-verbs-tree.js';

// "Stop notifications coming to my phone", "Stop the weekly email": a setting turned off by
// what it is about, in a person's words rather than the setting's name. The words that the
// page shows somewhere (two at least) must all be in the row of one switch or box — its name
// and the line under it ("Push notifications / On your phone, through the app"). Words the
// page does not show ("coming") are a person's, not the page's; fewer than two left, or two
// rows holding them, change nothing.

const FILLER = new Set(['a', 'an', 'the', 'my', 'our', 'me', 'i', 'to', 'on', 'in', 'of', 'for', 'from', 'by', 'at', 'any', 'all', 'more', 'that', 'which', 'are', 'is', 'be', 'being', 'get', 'getting', 'receive', 'receiving', 'sent', 'send', 'sending', 'coming', 'come', 'going', 'please']);
const TOGGLES = new Set(['switch', 'checkbox', 'menuitemcheckbox']);

export function parseStopSetting(step: string): { words: string } | null {
  const m = /^(?:stop|no\s+more|stop\s+(?:getting|receiving|sending))\s+(.+)$/i.exec(step.trim().replace(/[.!]+$/, ''));
  return m ? { words: m[1] } : null;
}

/** Lower-case words, a plural's s aside ("notifications" is "notification"). */
const wordsOf = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));

/** The switch the words are about, or why there is none. */
export function settingByWords(tree: AriaNode[], words: string): { ok: true; ctl: Ctl; kept: string[] } | { ok: false; why: string } {
  const page = new Set(tree.flatMap((n) => textsIn(n)).flatMap(wordsOf));
  const kept = [...new Set(wordsOf(words).filter((w) => !FILLER.has(w) && page.has(w)))];
  if (kept.length < 2) return { ok: false, why: `too few of these words are on the page to say which setting (${kept.length ? kept.map((w) => `"${w}"`).join(', ') : 'none'})` };
  const toggles = controlsOf(tree).filter((c) => TOGGLES.has(c.role));
  // Each toggle's row: the nearest container around it that holds text besides its own name.
  const rowWords = (c: Ctl): Set<string> => {
    for (let d = c.path.length - 1; d >= 0; d--) {
      const within = controlsOf([c.path[d]]).filter((x) => TOGGLES.has(x.role));
      if (within.length > 1) break; // a wider box holds other settings too
      const texts = textsIn(c.path[d]);
      if (texts.some((t) => t.trim() && t.trim() !== c.name.trim())) return new Set(texts.flatMap(wordsOf));
    }
    return new Set(wordsOf(c.name));
  };
  const hits = toggles.filter((c) => { const w = rowWords(c); return kept.every((k) => w.has(k)); });
  if (hits.length !== 1) return { ok: false, why: hits.length ? `${hits.length} settings are about ${kept.map((w) => `"${w}"`).join(' and ')} (${hits.slice(0, 3).map((h) => `"${h.name}"`).join(', ')})` : `no setting's row says ${kept.map((w) => `"${w}"`).join(' and ')}` };
  return { ok: true, ctl: hits[0], kept };
}
