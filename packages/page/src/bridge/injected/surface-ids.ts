// In-page: an icon-only control's own id or data-* value as the name a person would use, when it
// is a word of the web's action and icon vocabulary (`<button id="copy">`, `<a data-a="del">`,
// `<span data-op="edit-profile">`). Hand-written ids and data values name what a control does
// in jQuery-era and hand-rolled pages; generated ids (ember12, :r3:, a hash) and words outside
// the vocabulary (id="main", data-state="open") say nothing. tests/surface-glyphs.test.ts checks
// that every word here reaches a concept of targeting/iconography.ts.

import { generatedReason } from './generated-ids.js';

// Verbs and icon words as pages spell them in ids and data values (a subset of iconography.ts).
export const ACTION_WORDS = new Set(`add new create plus insert delete remove trash discard erase edit modify rename compose
copy duplicate clone paste cut save close dismiss cancel clear search find filter sort refresh reload sync retry undo redo
share send reply forward archive unarchive download upload export import print settings preferences options configure
menu more expand collapse next previous prev back up down left right play pause stop mute unmute like unlike favorite
favourite star unstar bookmark pin unpin flag report lock unlock show hide view preview info help home profile account
user logout login notifications bell mail email message chat comment comments attach attachment link unlink
calendar zoom fullscreen maximize minimize toggle confirm approve accept block ban call phone cart upvote downvote
minus subtract increase decrease increment decrement details reorder drag tag tags`.split(/\s+/));

// Short forms a page's own code uses.
const ABBREV: Record<string, string> = { signout: 'sign out', signin: 'sign in', del: 'delete', rm: 'remove', cfg: 'settings', conf: 'settings', config: 'settings', prefs: 'preferences', pref: 'preferences', fav: 'favourite', fave: 'favourite', dup: 'duplicate', dl: 'download', ul: 'upload', msg: 'message', notif: 'notifications', notifs: 'notifications', srch: 'search', dec: 'decrease', inc: 'increase', cnt: '', btn: '', ico: '', icon: '', act: '', action: '', js: '', do: '', cmd: '' };

// data-* attributes that hold a component's state or configuration, never what it does:
// Bootstrap's data-bs-dismiss="alert" names what it closes, Radix's data-side="right" where it opens.
const DATA_SKIP = /^data-(?:bs-|radix|headlessui|reach|state|side|align|orientation|placement|position|toggle|dismiss|target|parent|size|variant|color|theme|slot|disabled|selected|active|open|highlighted|focus|hover|pressed|expanded|checked|value|index|id|key|rating|score|count|sort|track|gtm|ga-|analytics|tooltip|title|original-title|tip|label|hint|testid|test|cy|qa|icon|action|command|cmd|name|v-|turbo|controller)/i;

/** The name a token of an id or data value says, or null: one or two words, one of them a vocabulary word. */
export function vocabularyName(value: string, kind: 'id' | 'testid' = 'id'): string | null {
  const v = value.trim();
  if (!v || v.length > 32 || generatedReason(v, kind)) return null;
  const words = v.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[-_.:\s]+/).filter(Boolean)
    .map((w) => (w in ABBREV ? ABBREV[w] : w)).filter(Boolean);
  if (!words.length || words.length > 2 || words.some((w) => !/^[a-z]+$/.test(w))) return null;
  if (!words.some((w) => ACTION_WORDS.has(w))) return null;
  return words.join(' ');
}

const INTERACTIVE = 'a[href], button, input, select, textarea, [role="button"], [role="link"], [onclick], [tabindex]';

/**
 * The name an icon-only control's own id or data-* value gives it (`from`: 'id' or 'data').
 * Only the element's own attributes, and those of what it holds when it holds no other control:
 * a container's id never names the controls inside it.
 */
export function idName(el: Element, all: Element[]): { name: string; from: 'id' | 'data' } | null {
  const own = el.querySelector(INTERACTIVE) ? [el] : all;
  for (const e of own) {
    if (e.localName === 'path' || e.localName === 'use' || e.localName === 'g') continue;
    const id = e.getAttribute('id');
    const n = id ? vocabularyName(id) : null;
    if (n) return { name: n, from: 'id' };
  }
  for (const e of own) {
    for (const a of Array.from(e.attributes)) {
      if (!a.name.startsWith('data-') || DATA_SKIP.test(a.name)) continue;
      const n = vocabularyName(a.value);
      if (n) return { name: n, from: 'data' };
    }
  }
  return null;
}
