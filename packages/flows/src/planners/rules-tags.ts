import { LOOK_WORDS, unquote, type DescribedTarget } from '@ariadne/page';

// "Remove the contractor tag from Lena Vogel", "Take the urgent label off 'Fix login redirect'":
// the × (or a remove/close control) on the tag that shows those words, inside the row or card
// that shows the other — never the same tag on another row, never the row's own delete.

const UNTAG = /^(?:remove|delete|clear|drop|take(?:\s+away)?|detach)\s+(?:the\s+)?(.+?)\s+(?:tag|label|chip|badge|pill|category|topic)\s+(?:from|off(?:\s+of)?)\s+(?:the\s+)?(.+?)$/i;
const WHOSE = /^(.+?)(?:['’]s)?\s+(?:row|card|entry|item|post|task|issue|ticket|profile|record)$/i;

/** The targets for removing a tag from a row or card, most likely first; null when the words are not that. */
export function parseUntag(s: string): DescribedTarget[] | null {
  const m = UNTAG.exec(s.trim());
  if (!m) return null;
  const tag = unquote(m[1].replace(LOOK_WORDS, '').trim());
  let owner = m[2].trim().replace(/^(?:the\s+)?(?:row|card|entry|item|post|task)\s+(?:of|for)\s+/i, '');
  owner = unquote(WHOSE.exec(owner)?.[1] ?? owner);
  if (!tag || !owner || /\s(?:and|or)\s/i.test(tag)) return null;
  const on = (phrase: string, icon = false): DescribedTarget => ({ phrase, role: null, scope: tag, within: owner, ...(icon ? { icon: true } : {}) });
  return [on('×'), on('remove', true), on('close', true), on('delete', true), on('Remove'), on('Delete')];
}
