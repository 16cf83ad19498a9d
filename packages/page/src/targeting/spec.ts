import { roleHintFor, type AriaRole } from './phrases.js';
import { isIconWords, isPictureWords } from './iconography.js';
import { parseRating, refineIconTarget } from './rating.js';

// What a phrase says about its target, as data: the name, the kind of control, where it
// is (a landmark, a container that mentions some text, next to some text), which of
// several (an ordinal). Pure: the one parser behind both the REST `description` and the
// rules planner's sentences, so the two understand the same words.

export interface DescribedTarget {
  /** The element's name words; '' when the phrase names only a kind ("the textbox"). */
  phrase: string;
  /** The kind of control the words name (or the action's default kind). */
  role: AriaRole | null;
  /** The name was quoted: compared verbatim (any case), never as a substring. */
  quoted?: boolean;
  /** Text of the container the element must be in ("the Blue Mug card"), or text it sits next to. */
  scope?: string;
  /**
   * The text of a wider container the scope sits in ("the × on the 'urgent' tag on the 'Fix
   * login' card": scope urgent, within Fix login), a derived reading of a nested scope.
   */
  within?: string;
  /** The scope is text it sits beside ("to the right of Department", "next to Buy milk"), not a container it is in. */
  beside?: boolean;
  /** A landmark role the element must be inside (navigation, banner, contentinfo, ...). */
  landmark?: string;
  /** 1-based position among the matches in reading order; -1 is the last. */
  ordinal?: number;
  /** The table column it sits in, by its header ("the toggle in the Active column of Tom's row"). */
  column?: string;
  /** Inside the nth item/row/card ("Edit in the last row"); -1 is the last. */
  withinOrdinal?: number;
  /** A reading the words did not state (derived): whole names and whole scope texts only. */
  strict?: boolean;
  /** The scope must be the candidate's group's own name (a fieldset legend, a radiogroup label). */
  group?: boolean;
  /** Only a control without a word name (an icon-only delete button: "the only button in the row"). */
  unnamed?: boolean;
  /**
   * The kind of field the words name ("the textarea" → multiline, "the date field" → date,
   * "the text input" → text): with a phrase, a field named so OR of that kind; alone, of that kind.
   */
  kind?: string;
  /** A list or field that shows this value now ("the drop-down showing Europe/London"). */
  showing?: string;
  /** A list (select, listbox) that offers these choices ("Select Kenya from the list"). */
  offers?: string[];
  /** "Expand the section": the one collapsed disclosure (aria-expanded=false, a closed <details>). */
  collapsed?: boolean;
  /** Only controls in this state ("tick nothing": the ticked ones). */
  checked?: boolean;
  /** The words named an icon ("the trash icon"): an element without a word name of its own, named by its picture. */
  icon?: boolean;
  /**
   * The words as a whole name, tried first as an exact name: "Link account" read as a link named
   * "account" must still find a button named "Link account".
   */
  whole?: string;
  /** Count inside one run of like icons (a rating's stars); above 1, the run must have that many ("3 out of 5"). */
  run?: number;
  /** A picture a person placed it by ("the heart next to the bin icon"): a control beside it shows that picture. */
  nextTo?: string;
}

export type TargetAction = 'click' | 'fill' | 'type' | 'check' | 'uncheck' | 'select' | 'hover' | 'press' | 'focus' | 'assert' | 'upload' | 'drag' | 'clear' | 'scroll' | 'any';

const QUOTE = /^\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’)\s*$/;
const QUOTED_ANY = /"([^"]+)"|“([^”]+)”|(?<![\p{L}\p{N}])'([^']+)'(?![\p{L}\p{N}])|‘([^’]+)’/u;
const QUOTED_ALL = new RegExp(QUOTED_ANY.source, 'gu');

export function unquote(s: string): string {
  const m = QUOTE.exec(s);
  if (m) return m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
  return s.trim().replace(/[.!;:,]+$/, '').trim();
}

export function isQuoted(s: string): boolean {
  return QUOTE.test(s);
}

// Landmarks by the words people use for them.
const LANDMARK_WORDS: [RegExp, string][] = [
  [/^(?:main\s+)?(?:navigation|nav|nav ?bar|navigation bar|menu ?bar|top nav(?:igation)?|site nav(?:igation)?)$/i, 'navigation'],
  [/^(?:page\s+)?(?:header|banner|top bar|masthead)$/i, 'banner'],
  [/^(?:page\s+)?footer$/i, 'contentinfo'],
  [/^(?:side ?bar|aside|side panel|side menu)$/i, 'complementary'],
  [/^main(?:\s+(?:content|area|section|region))?$/i, 'main'],
  [/^(?:dialog|modal|pop-?up|popup window|dialog box|modal dialog)$/i, 'dialog'],
  [/^search(?:\s+(?:area|region|form))?$/i, 'search'],
];

export function landmarkRole(words: string): string | null {
  const w = words.trim().replace(/^(?:the|a|an)\s+/i, '');
  for (const [re, role] of LANDMARK_WORDS) if (re.test(w)) return role;
  // A label before the landmark noun: "Help sidebar", "main navigation", "site footer".
  const tail = /^[\w-]+(?:\s+[\w-]+)?\s+(navigation|nav|sidebar|side bar|footer|header|menu bar)$/i.exec(w);
  if (tail) return landmarkRole(tail[1]);
  return null;
}

const ROLE_NOUNS = /(?:^|\s+)(?:button|btn|link|hyperlink|checkbox|check box|tick box|radio button|radio|dropdown|drop-down|select box|select|combobox|combo box|field|input|text ?box|text ?area|textarea|box|tab|menu item|menuitem|heading|title|option|switch|toggle|icon|image|logo|list|listbox|list box|slider|control)\s*$/i;
const KIND_ROLES: [RegExp, AriaRole][] = [
  [/^(?:list|listbox|list box)$/i, 'listitem'],
  [/^control$/i, 'button'],
];
const CONTAINER_NOUNS = /\s+(?:card|row|item|tile|section|panel|list item|entry|block|form|area|region|column|cell|box|group|post|article|product|line|tab|menu|submenu|table|list|tree|window)\s*$/i;
const SCREEN_PLACE = /\s+(?:at\s+the\s+(?:very\s+)?(?:end|start|beginning)|(?:at|in|on|to)\s+the\s+(?:very\s+)?(?:top|bottom|upper|lower)?[- ]?(?:left|right|top|bottom)?(?:\s*(?:hand\s+)?(?:corner|side|edge|end|part))?(?:\s+of\s+(?:the\s+)?(?:page|screen|window|(?:(?:his|her|its|their|the|that|this)\s+)?(?:row|line|title ?bar|card|post|box|header|toolbar)))?|(?:on|in|of)\s+(?:his|her|its|their|that|this)\s+(?:row|line|card|post|entry))$/i;
// Words about a control's look, not its name ("the red bin icon", "the small up arrow"): read without them last.
export const LOOK_WORDS = /^(?:(?:floating|dashed|dotted|red|green|blue|yellow|pink|grey|gray|black|white|orange|purple|dark|light|small|big|large|little|tiny|empty|filled|hollow|solid|round|circular|square|crossed-out|outlined|highlighted|bold|bright|pale|switched[- ]off|switched[- ]on|turned[- ]off|turned[- ]on)\s*,?\s+)+(?=\S)/i;
// "the 'Northwind 2.0' banner", "the 'urgent' tag": the quoted words are the text; the noun after them says what shows it.
const QUOTED_THEN_NOUN = /(["”’'])\s+(?:banner|bar|strip|notice|announcement|message|alert|toast|chip|tag|pill|badge|label|heading|title|text|callout)$/i;
// "the email from Trista", "the post by @ben", "the row for Carla": the person or thing the container shows.
const PERSON_SCOPE = /^(?:the\s+|an?\s+)?(?:e-?mail|message|mail|post|comment|card|row|entry|item|tweet|thread|conversation|note|review|reply|file|order|ticket|line|record|listing|result|profile|photo|picture|status|update|user|person|account)\s+(?:sent\s+)?(?:by|from|for|of|with|to|about)\s+(?:the\s+user\s+|user\s+)?(?=\S)/i;
const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, last: -1 };
const ORDINAL = /^(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))\s+(.+)$/i;

// A kind word before a name ("button OK", "the link Home"), never before a preposition ("button labeled X", "link to X").
const LEAD_ROLE = /^(button|btn|link|hyperlink|checkbox|check box|radio button|radio|tab|dropdown|drop-down|combo ?box|menu ?item|option|switch|icon|key|image)\s+(?!(?:labell?ed|named|called|titled|saying|for|next|beside|near|in|on|of|with|to|that|which|by|from|at|and|or|is|are)\b)(.+)$/i;

const FIELD_TYPES: [RegExp, string][] = [
  [/^(?:date|birth ?date|calendar)$/i, 'date'],
  [/^time$/i, 'time'],
  [/^(?:e-?mail)$/i, 'email'],
  [/^(?:password|passcode|pass word)$/i, 'password'],
  [/^(?:number|numeric|quantity)$/i, 'number'],
  [/^(?:phone|telephone|tel)$/i, 'tel'],
  [/^(?:url|web address|website)$/i, 'url'],
  [/^(?:colou?r)$/i, 'color'],
  [/^(?:month)$/i, 'month'],
  [/^(?:week)$/i, 'week'],
];

/**
 * "textarea", "the multiline field" → multiline; "text input", "text fields" → text (one line);
 * "date field", "password box" → that type, keeping the word as a name too ("Password" labels a
 * password field as often as its type does). Null when the words are not a field's kind.
 */
export function fieldKind(words: string): { phrase: string; kind: string } | null {
  const w = words.trim().toLowerCase().replace(/^(?:the|a|an)\s+/, '');
  if (/^(?:big|large|long|multi-?line|bigger)\s+text ?(?:boxe?s?|fields?|areas?|inputs?)$/.test(w)) return { phrase: '', kind: 'multiline' };
  if (/^(?:text ?areas?|multi-?line(?: text)?(?: fields?| boxe?s?| inputs?)?|comment box|message box)$/.test(w)) return { phrase: '', kind: 'multiline' };
  if (/^(?:plain |single-line |one-line )?text (?:fields?|inputs?|boxe?s?|entry|entries)$/.test(w) || /^(?:text|input) fields?$/.test(w)) return { phrase: '', kind: 'text' };
  // "the Cost Centre text field": a one-line field named so.
  const named = /^(.+?)\s+text\s+(?:fields?|inputs?|boxe?s?)$/.exec(w);
  if (named && !/^(?:plain|single-line|one-line|big|large|long|multi-?line|bigger)$/.test(named[1])) return { phrase: words.trim().replace(/^(?:the|a|an)\s+/i, '').replace(/\s+text\s+\S+$/i, ''), kind: 'text' };
  const m = /^(.+?)\s+(?:fields?|inputs?|boxe?s?|entry|picker|control)$/.exec(w);
  if (m) for (const [re, kind] of FIELD_TYPES) if (re.test(m[1])) return { phrase: m[1], kind };
  if (/^(?:date|time) ?picker$/.test(w)) return { phrase: '', kind: w.startsWith('time') ? 'time' : 'date' };
  return null;
}

function ordinalValue(w: string): number {
  const k = w.toLowerCase();
  return ORDINALS[k] ?? parseInt(k, 10);
}

/**
 * "the Add to cart button in the Desk Lamp card", "the Sign in link in the navigation",
 * "the checkbox next to Buy milk", "Buy milk's checkbox", "the 3rd result",
 * "the field labeled "Full name"", "the textbox" → a DescribedTarget.
 */
export function parseTarget(raw: string, defaultRole: AriaRole | null = null): DescribedTarget {
  return refineIconTarget(parseTargetWords(raw, defaultRole), isPictureWords);
}

// "the pencil (edit) icon", "the bin (delete) icon", "the remove (x) icon": a gloss of the
// picture in brackets, itself a picture or purpose word or a glyph. Dropped: the words before
// it name the same icon. So is a remark (below). Any other bracket ("Save (draft)") stays.
// "(it shows Europe/London)", "(the one next to Employee Name)": a remark about where or how
// it looks, in words that never name a control.
const REMARK = /^(?:it|its|it's|which|that|the|a|an|showing|shows|currently|now|next|left|right|between|under|below|above|beside|near|just|with|where|e\.g\.|i\.e\.)\s/i;
const ICON_OR_REMARK = /\s*\(([^()"“”]{1,60})\)/g;

/** The words without a picture gloss or a remark in brackets (what the parse reads, and the prove stage checks). */
export function dropIconGloss(s: string): string {
  const drop = (part: string) => part.replace(ICON_OR_REMARK, (all, inner: string, at: number, whole: string) => {
    const t = inner.trim();
    // "Lena Voss's row (lena.voss@acme.io)": a detail that tells which row, after its noun; it only narrows.
    if (/\b(?:row|line|card|entry|record|item|post|column|tile)$/i.test(whole.slice(0, at).trimEnd()) && !/[()]/.test(t)) return '';
    const gloss = t.length <= 24 && (/^[^\p{L}\p{N}\s]{1,2}$/u.test(t) || isIconWords(t));
    return gloss || REMARK.test(t) ? '' : all;
  });
  // Quoted words are the page's own: brackets in them stay.
  let out = '';
  let at = 0;
  for (const m of s.matchAll(QUOTED_ALL)) {
    out += drop(s.slice(at, m.index)) + m[0];
    at = m.index! + m[0].length;
  }
  return out + drop(s.slice(at));
}

// Words after an overlay's noun that say it opened or what it asks ("the box that asks you to
// confirm", "the panel that slides in", "the menu that opens"): never part of its title.
const OVERLAY_CLAUSE = /\s+(?:that|which|where|asking|asks|to|you|now|just|on\s+screen|(?:has\s+)?(?:opens?|opened|opening|appears?|appeared|appearing|pops? up|popped up|slides? (?:in|out|over)|slid (?:in|out)|shows? up|showed up|comes? up|came up|shown))\b.*$/i;
// Only an unnamed menu: "Export in the File menu" names a route to open (disclose.ts).
const MENU_OVERLAY = /^(?:(?:the|this|that|its|their|his|her|a|an)\s+)?(?:(?:context|drop-?down|pop-?up|overflow|kebab|actions?|options|more|row|list|card|item)\s+)*(?:menu|submenu)$/i;
const DIALOG_OVERLAY = /^(?:(.*?)\s+)?(dialog(?:ue)?(?:\s+(?:box|window))?|modal(?:\s+(?:dialog|window|box))?|pop-?up(?:\s+(?:window|box|dialog))?|lightbox|alert(?:\s+(?:box|dialog))?|box|window|panel|drawer|sheet|overlay|popover|flyout|slide-?(?:in|over)(?:\s+panel)?)$/i;

/**
 * An overlay a phrase ends in, and the words before it: a menu (its title words dropped: the
 * open menu is the one meant), or a dialog and its title words ("Edit member"). A box, panel or
 * window is a dialog only when the words say so: it opened, it asks, it confirms.
 */
export function overlayAtEnd(s: string): { head: string; landmark: 'dialog' | 'menu'; title?: string } | null {
  const preps = [...s.matchAll(/\s+(?:in|inside|within|on|of|from|at)\s+(?=(?:the|this|that|its|their|his|her|a|an)\s+)/gi)];
  for (let k = preps.length - 1; k >= 0; k--) {
    const head = s.slice(0, preps[k].index).trim();
    let w = s.slice(preps[k].index! + preps[k][0].length).trim().replace(/[.,;]+$/, '');
    if (!head || /^[^"“‘']*["“‘'][^"”’']*$/.test(head)) continue; // inside a quote
    const clause = OVERLAY_CLAUSE.exec(w);
    if (clause) w = w.slice(0, clause.index).trim();
    if (MENU_OVERLAY.test(w)) return { head, landmark: 'menu' };
    w = w.replace(/^(?:the|this|that|its|their|his|her|a|an)\s+/i, '').replace(LOOK_WORDS, '');
    const d = DIALOG_OVERLAY.exec(w);
    if (!d) continue;
    const title = (d[1] ?? '').trim();
    const strong = /dialog|modal|pop-?up|lightbox|alert/i.test(d[2]) || /confirm/i.test(title);
    if (!strong && !clause) continue;
    const words = title.split(/\s+/).filter((t) => t && !/^(?:confirm(?:ation)?|confirming|the|this|that|new|open|opened|same|warning)$/i.test(t)).join(' ');
    return { head, landmark: 'dialog', ...(words && !/[,()]/.test(words) ? { title: unquote(words) } : {}) };
  }
  return null;
}

// "the drop-down showing '-- Select --'": a list or field by the value it shows, and (after it)
// "the select under Timezone": named by the label it sits under or beside.
const SHOWN_KINDS = String.raw`drop-?down|select|list|combo ?box|picker|menu|field|box|input`;
const SHOWN_VALUE = new RegExp(String.raw`^(.*?\b(?:${SHOWN_KINDS}))\s+(?:that|which)?\s*(?:showing|shows|displaying|says|saying|reading|set to)\s+("[^"]+"|“[^”]+”|'[^']+'|‘[^’]+’|[^\s,]+(?:\s+(?!under\b|next\b|beside\b|near\b|in\b|on\b|for\b|at\b|below\b|above\b)[^\s,]+){0,3})(.*)$`, 'i');
const KIND_BY_LABEL = new RegExp(String.raw`^(?:the\s+)?(${SHOWN_KINDS})\s+(?:under|below|beside|next to)\s+(?:the\s+)?(.+)$`, 'i');

function parseTargetWords(raw: string, defaultRole: AriaRole | null): DescribedTarget {
  let s = raw.trim().replace(/[.!]+$/, '').trim();
  s = dropIconGloss(s);
  // "the purple switch of the Push notifications row ('On your phone, through the mobile app')",
  // "the × on the 'urgent' tag (next to the red bug tag)": an aside after a description says
  // what else a person saw there, never the name; dropped. A handle or an address in brackets
  // tells rows apart ("Rochella Parks (@rochella_p)"): kept (applyScope reads it).
  // "... to switch it off", "... to open it": what the click is for, not which element
  // (before the asides: "the switch of the Push row ('On your phone') to switch it off").
  s = s.replace(/\s+(?:in order\s+)?to\s+(?:switch|turn|toggle|open|close|select|enable|disable|activate|deactivate|expand|collapse|show|hide|remove|delete|save|confirm)\s+(?:it|them|this|that|him|her)\b.*$/i, '').trim() || s;
  // "..., not the one in Lena Voss's row": which one it is not, said after which one it is.
  if (!isQuoted(s)) s = s.replace(/^(\S+(?:\s+\S+){2,}?)\s*,\s*(?:and\s+|but\s+)?not\s+(?:the\s+(?:one|ones|other\s+one|same\s+\w+)|that\s+one|those)\s+(?:in|of|on|for|at|under|next\s+to|beside|by)\s+[^,()]+$/i, '$1').trim();
  const aside = /^(\S+(?:\s+\S+){2,}?)\s*\(([^()]{2,100})\)$/.exec(s);
  if (aside && !/^\s*@?[\w.+-]*@[\w.-]*\s*$/.test(aside[2])) s = aside[1].trim();
  // "the bin icon in the '2 selected' bar above the table": where the bar sits says no name;
  // the bar is the scope, by what it shows.
  s = s.replace(/(\s(?:bar|banner|strip|toolbar|header|ribbon|notice))\s+(?:that\s+(?:appears|shows|sits|is)\s+)?(?:(?:just|right|directly)\s+)?(?:above|below|beneath|over|under|on\s+top\s+of|at\s+the\s+(?:top|bottom)\s+of)\s+(?:the\s+)?(?:table|list|grid|board|page|form|rows|results|screen|window)\b/i, '$1');
  // "the next page arrow at the bottom right of the table": a pager or a button sits by the
  // table, not in it; where it sits beside a table, list or page is colour.
  s = s.replace(/\s+(?:at|on|in|near|to)\s+the\s+(?:very\s+|far\s+)?(?:top|bottom|upper|lower|right|left)(?:[- ](?:right|left|hand|end|side|edge|corner))*\s+(?:of|under|below|beneath)\s+(?:the\s+)?(?:table|list|grid|page|screen|window|results|members table|data table)\b,?/i, '');
  // "the 4-star rating star", "the 3-star button": the Nth star of a rating.
  s = s.replace(/\b(\d|one|two|three|four|five)[- ]star\s+(?:rating\s+)?(?:star|button|icon|option)\b/i, (_all, n: string) => `${({ one: '1', two: '2', three: '3', four: '4', five: '5' } as Record<string, string>)[n.toLowerCase()] ?? n}${['1', 'one'].includes(n.toLowerCase()) ? 'st' : ['2', 'two'].includes(n.toLowerCase()) ? 'nd' : ['3', 'three'].includes(n.toLowerCase()) ? 'rd' : 'th'} star`);
  // "the fourth star in the row of grey stars under 'How are we doing?'": the run of pictures
  // is where the Nth one is counted, not a row of the page.
  s = s.replace(/\s+in\s+the\s+(?:row|line|set|group|strip)\s+of\s+(?:(?:\w+|five|5)\s+){0,2}(?:stars|hearts|icons|dots|circles|thumbs)\b/i, '');
  // "the Team card in the middle of the Plan section": the middle of a container is in it.
  s = s.replace(/\s(?:in|at)\s+the\s+(?:very\s+)?(?:middle|centre|center)\s+of\s+(?=\S)/i, ' in ');
  // "the Cheque radio button between Bank transfer and Petty cash": its neighbours say where, not which.
  if (!isQuoted(s)) s = s.replace(/^(.+?\S)\s+(?:(?:just|right|sitting)\s+)?(?:in\s+)?between\s+(?:the\s+)?[^,]+?\s+and\s+(?:the\s+)?[^,]+$/i, '$1');
  // "the 'I confirm that these expenses…' checkbox": a quote cut short is the start of the name.
  s = s.replace(/([^\s"“‘'])\s*(?:…|\.{3})(["”’'])/gu, '$1$2');
  const spec: DescribedTarget = { phrase: '', role: null };
  // "the drop-down showing '-- Select --'", "the select that shows Europe/London under
  // Timezone": a list or field by the value it shows now (what a screenshot shows of it).
  const shows = SHOWN_VALUE.exec(s);
  if (shows) {
    spec.showing = unquote(shows[2]);
    s = `${shows[1]}${shows[3]}`.trim();
    // "the select showing X under Timezone": a field is named by the label it sits under or beside.
    const under = KIND_BY_LABEL.exec(s);
    if (under) s = `the ${under[2]} ${under[1]}`;
  }
  // "the pink switch in the Active column of Tom Reyes's row": the column by its header, then
  // the row as usual ("... in Tom Reyes's row").
  const col = /^(.+?)\s+(?:in|under|from)\s+the\s+(?:["“‘']?)([^"“‘'”’]{1,40}?)(?:["”’']?)\s+column\s+(?:of|on|in|for|at)\s+(?:the\s+)?(.+?)$/i.exec(s);
  if (col && !isQuoted(s)) {
    spec.column = col[2].trim();
    s = `${col[1]} in ${/^["“‘']/.test(col[3]) || /['’]s?\s+(?:row|line|entry|record)\b/i.test(col[3]) ? col[3] : `the ${col[3]}`}`;
  }
  // With a quoted name, unquoted trailing words are colour ("at the bottom right"): only a
  // quoted container or a landmark scopes it.
  const hasQuote = QUOTED_ANY.test(s);
  // A short container phrase ("the @ben post", "the Invoice 12 row") scopes a quoted name too.
  const scopeOk = (inner: string) => !hasQuote || /^(?:the\s+|a\s+|an\s+)?(?:(?:user|item|row|post|entry|e-?mail|message|card|line|task|todo|note|file|order)\s+(?:(?:of|for|from|by|with|called|named)\s+)?)?["“‘']/i.test(inner.trim()) || /^(?:the\s+)?[^\s,]+(?:\s+[^\s,]+){0,2}\s+(?:post|row|card|item|entry|tile|section|tab|menu|list|column|lane|panel|group|table)$/i.test(inner.trim());

  // "the grey toggle on the right of the Weekly digest row", "the bin at the far right end of
  // the GitHub line": where in the row it sits, and the row by its text.
  // Also "at the bottom right of the 'Update privacy policy' card, the first card in To do",
  // "at the far right of Priya's row": what follows the container is more colour.
  const side = /^(.+?)\s+(?:on|at|to|in|near)\s+the\s+(?:far\s+|very\s+)?(?:(?:top|bottom|upper|lower)(?:[- ](?:right|left))?|right|left)(?:[- ]hand)?(?:\s+(?:end|side|edge|corner|part))?\s+of\s+(?:the\s+)?(.+?)(?:['’]s)?\s+(?:row|line|card|entry|item|tile|record|post|bar|banner|strip|notice|toolbar|chip|tag|pill)(?:,.*|\s+(?:in|on|under)\s+(?:the\s+)?([^,]+?)(?:,.*)?|\s+(?:just|next|right)\b.*|\s+at\s+the\s+.*)?$/i.exec(s);
  if (side && !isQuoted(s)) {
    // "... of the GitHub row in Connected apps": a nested scope (see nestedReadings).
    const where = unquote(side[2].replace(LOOK_WORDS, ''));
    spec.scope = side[3] ? `${where} in ${side[3].trim()}` : where;
    s = side[1].trim();
  }
  // "... in Rochelle Park's row", "... at the right end of Anne Berg's row": that row.
  const own = side ? null : /^(.+?)\s+(?:in|on|of|at|under|from|for|inside)\s+(?:the\s+(?:(?:far\s+)?(?:right|left)\s+)?(?:end|start|side|beginning)\s+of\s+)?(.+?)(['’]s?)\s+(?:row|post|line|card|entry|message|e-?mail|item|tweet|comment|profile|box)$/i.exec(s);
  if (own && !isQuoted(s)) {
    // "the 'Hotel - 2 nights' row": the apostrophe closes a quote, it is no possessive.
    const inner = own[2].replace(/^(?:the|a|an)\s+/i, '');
    spec.scope = unquote(/^['‘]/.test(inner) && !/s$/i.test(own[3]) ? `${inner}${own[3]}` : inner);
    s = own[1].trim();
  }
  // Where on the screen it sits ("at the top right", "on the left", "at the right end of her
  // row"): words a person uses to point, not a name or a container; dropped.
  s = s.replace(SCREEN_PLACE, '').trim() || s;
  // An overlay at the end: "... in the dialog asking to confirm", "... in the box that asks you
  // to confirm", "... from the menu", "... in the row menu", "... in the Edit member dialog".
  const ov = overlayAtEnd(s);
  if (ov && !isQuoted(s)) {
    spec.landmark = ov.landmark;
    if (ov.title) spec.scope = ov.title;
    s = ov.head;
  }
  // A landmark at the end: "... in the navigation", "... in the footer".
  const lm = /^(.*)\s+(?:in|inside|within|on|from|at)\s+(?:the\s+)?([\w -]+?)$/i.exec(s);
  if (lm && lm[1].trim()) {
    const role = landmarkRole(lm[2]);
    if (role) {
      spec.landmark = role;
      s = lm[1].trim();
    }
  }
  // A container: "... in the "Blue Mug" card", "... for the user @u" (only with an article or a quote, so "Log in" keeps its "in").
  // "the Weekly digest switch in Notifications": after a kind word, "in" starts a place even
  // without an article (a name never ends in "switch in").
  // So does "under" after a card, an option or a choice box ("the Team plan card under Plan",
  // "the Cheque radio button under Payment Method": the group's label above or beside it; a
  // switch or checkbox "under Status" is in that column, below its header, so not these).
  const afterKind = /^(.+?\s(?:button|link|switch|toggle|checkbox|check box|radio button|radio|field|box|icon|tab|drop-?down|select|list|menu|(?:card|tile|chip|option)(?=\s+under\b)))\s+(?:in|on|inside|within|(?<=(?:card|tile|chip|option|radio button|radio)\s+)under)\s+(?!the\s|a\s|an\s|front\s+of\b|between\b)(\S.*)$/i.exec(s);
  if (afterKind && !isQuoted(s) && !/["“‘']/.test(afterKind[2])) s = `${afterKind[1]} in the ${afterKind[2]}`;
  const sm = /^(.*?)\s+(?:(?:that is |which is )?(?:in|on|inside|within|under|for|of)\s+(?:the |a |an )|inside |within |(?:in|for|of|under|below|beneath)\s+(?=["“‘']))(.+)$/i.exec(s);
  // "the checkbox left of the confirmation sentence": "left of" places it beside; no container.
  // ("at the top right of the Done list" keeps its container: a corner of it, not a side.)
  if (sm && /\s(?:left|right)$/i.test(sm[1]) && !/\b(?:top|bottom|upper|lower|the|far|very)[- ](?:left|right)$/i.test(sm[1])) sm.length = 0;
  if (sm && sm[1]?.trim() && !isQuoted(s) && (scopeOk(sm[2]) || landmarkRole(sm[2].trim().replace(/\s+(?:bar|menu|area|section|region)$/i, '')))) {
    const inner = sm[2].trim();
    const role = landmarkRole(inner.replace(/\s+(?:bar|menu|area|section|region)$/i, ''));
    const nth = /^(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))\s+(?:row|item|card|entry|result|line|post|product)$/i.exec(inner);
    if (role && !spec.landmark) spec.landmark = role;
    else if (nth) spec.withinOrdinal = ordinalValue(nth[1]);
    else if (/\s(?:dialog|modal|pop-?up|popup window|dialog box|title ?bar)$/i.test(' ' + inner) && !spec.landmark) {
      // "the × in the Welcome back dialog", "I agree in the Terms dialog": a dialog, and its title.
      spec.landmark = 'dialog';
      const title = unquote(inner.replace(/^(?:the|a|an)\s+/i, '').replace(/\s*(?:dialog box|dialog|modal|pop-?up|popup window|title ?bar)$/i, '').trim());
      if (title && !/^(?:confirm(?:ation)?|open|the|this|that)$/i.test(title)) spec.scope = title;
    } else spec.scope = unquote(inner.replace(QUOTED_THEN_NOUN, '$1').replace(CONTAINER_NOUNS, '').replace(PERSON_SCOPE, '').replace(/^(?:the|a|an)\s+/i, '').replace(/^(?:user|item|product|row|entry|post|person)\s+(?=\S)/i, '').replace(/^(?:by|for|of|from|with)\s+(?=\S)/i, ''));
    s = sm[1].trim();
  }
  s = s.replace(SCREEN_PLACE, '').trim() || s;
  // "the › arrow at the bottom right of the members table, right after '1 – 6 of 9'": a place
  // before a comma is colour; the anchor after it says where.
  s = s.replace(/\s+(?:at|on|in|near)\s+the\s+(?:far\s+|very\s+)?(?:top|bottom|upper|lower|right|left)(?:[- ](?:right|left|hand|end|side|edge|corner))*\s+of\s+(?:the\s+)?[^,"“‘']+,\s*(?=(?:right\s+|just\s+|immediately\s+)?(?:after|before|next to|beside)\s)/i, ' ');
  // Next to some text: "the checkbox next to Buy milk", "the checkbox for Buy milk", "the › arrow right after '1 – 6 of 9'".
  const nm = /^(.*?)\s+(?:next to|beside|besides|near|by|alongside|for|in front of|(?:to the |just |right |immediately )?(?:left|right) of|at the (?:end|start|beginning) of|((?:right |just |immediately )?(?:after|before))(?=\s+["“‘']))\s+(.+)$/i.exec(s);
  if (nm) nm.splice(2, 1); // the anchor relation's own group out: [all, head, place]
  const anchored = Boolean(nm && /\s(?:right |just |immediately )?(?:after|before)\s+["“‘']/i.test(s.slice(nm[1].length)));
  const head = nm ? nm[1].trim().replace(/^(?:the|a|an)\s+/i, '') : '';
  // A picture beside a quoted text ("the 4th star next to 'Not rated yet'"): the text is where, the picture what.
  const quotedAnchor = Boolean(nm && /^\s*["“‘']/.test(nm[2]) && !/["“‘']/.test(head) && isIconWords(head.replace(/^(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))\s+/i, '')));
  if (nm && head && !isQuoted(s) && !spec.scope && scopeOk(nm[2]) && (ROLE_NOUNS.test(' ' + head) || /^[^\p{L}\p{N}\s]{1,2}$/u.test(head) || quotedAnchor || (anchored && isIconWords(head) && !/["“‘']/.test(head)))) {
    spec.scope = unquote(nm[2].replace(/^(?:the|a|an)\s+/i, '').replace(CONTAINER_NOUNS, '').replace(PERSON_SCOPE, ''));
    spec.beside = true;
    s = nm[1].trim();
  }
  // "Buy milk's checkbox".
  const pm = /^(.+?)['’]s\s+(.+)$/i.exec(s);
  // "What's happening?", "Who's online": a contraction in the name, no one's possession.
  if (pm && !spec.scope && ROLE_NOUNS.test(' ' + pm[2].trim()) && !/(?:^|\s)(?:the\s+)?(?:what|who|it|that|there|here|where|how|let|he|she)$/i.test(pm[1])) {
    spec.scope = unquote(pm[1].replace(/^(?:the|a|an)\s+/i, ''));
    s = pm[2].trim();
  }
  // An ordinal: "the 3rd result", "the second checkbox", "the last row".
  const om = ORDINAL.exec(s);
  // Only before a kind or a quoted name ("the 2nd checkbox", "the last "Edit" button", "the
  // 3rd result"): "first name" and "last name" are names.
  if (om && (ROLE_NOUNS.test(' ' + om[2]) || /["“‘]/.test(om[2]) || /^(?:result|item|entry|row|card|one|product|post|article)s?$/i.test(om[2].trim()) || isIconWords(om[2]))) {
    spec.ordinal = ordinalValue(om[1]);
    s = om[2].trim();
  }
  // "the field labeled "Full name"": the name, not a scope.
  const named = /^(.*?)\s*\b(?:label(?:l)?ed|named|called|titled|saying|that says|which says|with (?:the )?(?:text|label|name))\s+(.+)$/i.exec(s);
  if (named) {
    spec.role = roleHintFor(named[1] || 'x') ?? defaultRole;
    const q = /^\s*(?:"([^"]+)"|“([^”]+)”|‘([^’]+)’|'([^']+)')/.exec(named[2]);
    spec.phrase = q ? (q[1] ?? q[2] ?? q[3] ?? q[4]) : unquote(named[2]);
    spec.quoted = Boolean(q);
    return spec;
  }
  s = s.replace(/^(?:the|a|an|on)\s+/i, '');
  // A field named by its kind: "the textarea", "the date field", "the text input", "the password box".
  const kind = fieldKind(s);
  if (kind) {
    return { ...spec, ...kind, role: 'textbox', kind: kind.kind };
  }
  // A kind word before the name: "button OK", "link Home", "the icon trash", "key Enter".
  const lead = LEAD_ROLE.exec(s);
  // "the link URL field", "the button label box": a kind word at the end is the kind; the first word is part of the name.
  const kindAtEnd = lead && !QUOTE.test(lead[2]) && /\s(?:field|box|input|text ?box|text ?area|textarea|drop-?down|select|checkbox|switch|toggle)$/i.test(` ${lead[2].trim()}`) && lead[2].trim().split(/\s+/).length > 1;
  if (lead && lead[2].trim() && !kindAtEnd) {
    const word = lead[1].toLowerCase();
    const rest = lead[2].trim();
    const q = QUOTE.exec(rest);
    const out: DescribedTarget = { ...spec, role: /^(?:icon|key|image)$/.test(word) ? (word === 'image' ? 'img' : null) : roleHintFor(word), phrase: q ? (q[1] ?? q[2] ?? q[3] ?? q[4] ?? '') : unquote(rest) };
    if (q) out.quoted = true;
    else out.whole = s;
    if (word === 'icon') out.icon = true;
    if (!out.role && word !== 'icon' && word !== 'key') out.role = defaultRole;
    return out;
  }
  const quoted = QUOTED_ANY.exec(s);
  const rest = quoted ? s.replace(quoted[0], ' ') : s;
  const kindWord = ROLE_NOUNS.exec(' ' + rest.trim());
  let role = roleHintFor(rest);
  if (kindWord && !role) for (const [re, r] of KIND_ROLES) if (re.test(kindWord[0].trim())) role = r;
  spec.role = role ?? defaultRole;
  if (quoted) {
    spec.phrase = quoted[1] ?? quoted[2] ?? quoted[3] ?? quoted[4] ?? '';
    spec.quoted = true;
    return spec;
  }
  let name = rest.replace(ROLE_NOUNS, '').trim();
  // Only words about its look ("the round checkbox", "the small button"): the kind alone.
  if (kindWord && name && (name + ' x').replace(LOOK_WORDS, '') === 'x') name = '';
  // A state said before a switch or a box ("the grey off switch", "the unticked checkbox"): the
  // one in that state; no name.
  const state = kindWord && name && ['switch', 'checkbox', 'radio'].includes(spec.role ?? '') ? /^(on|off|checked|unchecked|ticked|unticked)$/i.exec((name + ' x').replace(LOOK_WORDS, '').replace(/\s+x$/, '')) : null;
  if (state) {
    name = '';
    spec.checked = /^(?:on|checked|ticked)$/i.test(state[1]);
  }
  // "the trash icon", "the heart symbol": an element named by its picture, of any role.
  if (name && /\s(?:icon|glyph|symbol)$/i.test(' ' + rest.trim())) return { ...spec, role: null, phrase: unquote(name), icon: true };
  // Only a kind ("the textbox", "the button"), or a kind with a container noun ("result", "item").
  if (!name && kindWord) return spec;
  if (/^(?:result|item|entry|row|card|one|product|post|article)s?$/i.test(name) && spec.ordinal) return { ...spec, phrase: '', role: spec.role ?? 'listitem' };
  spec.phrase = unquote(name || rest);
  return spec;
}

// The instruction around a REST description: a leading verb and article.
const LEAD_VERB = /^(?:please\s+)?(?:double[- ]?click|right[- ]?click|click|press|tap|hit|select|choose|pick|open|check|uncheck|tick|untick|toggle|hover(?:\s+over)?|fill(?:\s+in)?|type\s+into|enter|focus(?:\s+on)?|go\s+to|use)(?:\s+on)?\s+/i;

// Verbs of a row's own actions ("Archive Invoice 12", "Delete the Buy milk row", "Like Ben Ode's
// post"): the control named by the verb (or a synonym) inside the row that shows exactly that text.
const ROW_VERB_NAMES: [RegExp, string[]][] = [
  [/^(?:delete|remove|trash|destroy|discard)$/i, ['Delete', 'Remove', 'Trash', 'Destroy', 'Discard']],
  [/^(?:duplicate|clone)$/i, ['Duplicate', 'Clone']],
  [/^(?:favou?rite|star)$/i, ['Star', 'Favorite', 'Favourite']],
];
export const ROW_VERBS = 'archive|unarchive|delete|remove|trash|destroy|discard|edit|rename|duplicate|clone|share|download|restore|approve|reject|decline|pin|unpin|star|unstar|favou?rite|like|unlike|follow|unfollow|mute|unmute|block|unblock|report|flag|refund|resend|upvote|downvote|bookmark|reply to|snooze|publish|unpublish';
const ROW_ACTION = new RegExp(String.raw`^(${ROW_VERBS})\s+(?!(?:the\s+)?(?:button|btn|link|icon|control|all|everything|selected|in|on|for|of|from|next|this|that|it)\b)(?:the\s+|an?\s+)?(.+?)$`, 'i');
const ROW_MENU_TAIL = /\s+(?:from|via|using|through|in|with|under)\s+(?:its|the|their|his|her|that)\s+(?:row['’]s\s+)?(?:[^\s]+\s+){0,2}?(?:menu|drop-?down|overflow menu|actions menu)$/i;
const ROW_NOUN = /\s+(?:row|item|entry|line|record|card|post|message|email|mail|comment|thread|conversation|file|order|task|todo|note|ticket|issue)$/i;

/** The control names that stand for a row verb: "Delete" also "Remove", "Trash", ... */
export function rowVerbNames(verb: string): string[] {
  const v = verb.trim().toLowerCase().replace(/\s+to$/, '');
  for (const [re, names] of ROW_VERB_NAMES) if (re.test(v)) return names;
  return [v[0].toUpperCase() + v.slice(1)];
}

/**
 * "Archive Invoice 12", "Delete the Invoice 12 row", "Like Ben Ode's post" → the verb's control
 * (and its synonyms) scoped to the row whose own text is exactly "Invoice 12": never a control in
 * a look-alike row, never the row's name with the verb dropped. Null when the words are not a verb
 * applied to a row's text (a name or scope follows the verb: "Delete in the Q3 row").
 */
export function parseRowAction(words: string): { verb: string; item: string; specs: DescribedTarget[] } | null {
  const s = words.trim().replace(/[.!;,:]+$/g, '').trim();
  const m = ROW_ACTION.exec(s);
  if (!m) return null;
  // "Rename report.pdf from its ⋯ menu": the row's own menu holds the control (disclose.ts opens it).
  const viaMenu = ROW_MENU_TAIL.test(m[2].trim());
  let item = m[2].trim().replace(ROW_MENU_TAIL, '');
  // "Ben Ode's post", "the "Q3 report" message", "Invoice 12 row".
  const poss = /^(.+?)['’]s\s+(?:post|comment|message|photo|tweet|row|item|card|entry|profile|reply|review|answer|question)$/i.exec(item);
  if (poss) item = poss[1];
  else if (!QUOTE.test(item)) item = item.replace(ROW_NOUN, '');
  item = item.replace(/^(?:the\s+)?(?:row|item|entry|line|record)\s+(?:for|of|with)\s+/i, '').trim();
  const quoted = QUOTE.test(item);
  item = unquote(item);
  if (!item || (!quoted && /\s+(?:in|on|inside|within|from|next to|beside|near)\s+(?:the|a|an)\s+/i.test(item))) return null;
  const verb = m[1].toLowerCase();
  // From the row's menu: an item named so, verbatim (never an icon that means the verb).
  const specs = rowVerbNames(verb).map((phrase): DescribedTarget => ({ phrase, role: null, scope: item, ...(viaMenu ? { quoted: true } : {}) }));
  // An icon-only control that means the verb (an archive box, a bin), after every named one.
  if (!viaMenu) specs.push({ phrase: verb, role: null, scope: item, icon: true });
  return { verb, item, specs };
}

/** A REST description ("Click the Sign in link in the navigation") as a DescribedTarget. */
export function parseDescription(description: string, defaultRole: AriaRole | null = null): DescribedTarget {
  const s = description.trim().replace(/[.!?;,:]+$/g, '').trim();
  const core = s.replace(LEAD_VERB, '');
  // "Give the Coffee grinder 3 stars": the 3rd star of its rating (rating.ts).
  const rating = parseRating(s);
  if (rating) return rating;
  return parseTarget(core || s, defaultRole);
}

/** Does the spec say more than a name (a scope, a landmark, an ordinal, only a kind)? */
export function isStructured(spec: DescribedTarget): boolean {
  return Boolean(spec.scope || spec.landmark || spec.ordinal || spec.withinOrdinal || !spec.phrase);
}

/**
 * Other readings of a phrase that matched nothing as written, tried last (tree only):
 * "Add to Cart for Desk Lamp" → "Add to Cart" near "Desk Lamp"; "Newsletter email" →
 * "email" in the container that says "Newsletter"; "the Returns section" → "Returns".
 */
export function derivedReadings(spec: DescribedTarget): DescribedTarget[] {
  const nested = nestedReadings(spec);
  const pictured = nested.map(pictureNameAlone).filter((d): d is DescribedTarget => d !== null);
  return [...nested, ...derivedLoose(spec), ...pictured].map((d, i) => (i < nested.length ? d : { ...d, strict: true }));
}

/**
 * "the two-sheets copy icon": how the picture looks, then its name, which no concept holds
 * whole; the name alone, in the same place. Never when the words before it say a direction
 * or an order ("the down arrow" is not any arrow).
 */
function pictureNameAlone(spec: DescribedTarget): DescribedTarget | null {
  const said = spec.phrase.split(/\s+/);
  const looks = said.slice(0, -1).join(' ');
  if (!spec.icon || said.length < 2 || said.length > 4 || isIconWords(spec.phrase) || !isIconWords(said[said.length - 1])) return null;
  if (/\b(?:up|down|left|right|back|forward|next|previous|prev|first|last|double|top|bottom|north|south|east|west|\d+)\b/i.test(looks)) return null;
  return { ...spec, phrase: said[said.length - 1] };
}

/**
 * A nested scope: "the × on the 'urgent' tag on the 'Fix login' card" → the "urgent" one
 * inside the "Fix login" card; "the bin in the GitHub row in Connected apps". Both texts must
 * be whole texts of their containers (the scope rules); the name is read as usual, so a
 * picture word still finds its icon.
 */
function nestedReadings(spec: DescribedTarget): DescribedTarget[] {
  if (!spec.scope || spec.within || spec.quoted) return [];
  const nest = /^(.+?)\s+(?:in|on|under|inside|within)\s+(?:the\s+)?(.+)$/i.exec(spec.scope);
  if (!nest) return [];
  const inner = scopePart(nest[1]);
  const outer = scopePart(nest[2]);
  // Never the inner place alone: "the Slack row in Available apps" is not the Slack row
  // elsewhere on the page (a silent wrong in a test of this).
  return inner && outer ? [{ ...spec, scope: inner, within: outer }] : [];
}

// Words that say what kind of small thing a scope is ("the 'urgent' tag"), not its text.
const PART_NOUNS = /\s+(?:tag|chip|label|badge|pill|bar|banner|strip|column|lane|list|section)\s*$/i;

/** A part of a nested scope as the text the page shows: no article, colour, kind noun or quotes. */
function scopePart(words: string): string {
  const t = words.trim().replace(/^(?:the|a|an)\s+/i, '').replace(/^(?:row|line|card|entry|post|item|record|message)\s+(?:of|for|by|from)\s+(?:the\s+)?/i, '').replace(LOOK_WORDS, '').replace(CONTAINER_NOUNS, '').replace(PART_NOUNS, '').trim();
  return t.replace(/^["“‘']+|["”’']+$/g, '').trim();
}

function derivedLoose(spec: DescribedTarget): DescribedTarget[] {
  // "'+ Add a card'": the + is often an icon of its own, the name only the words.
  if (spec.quoted && spec.phrase) {
    const bareName = spec.phrase.replace(/^[^\p{L}\p{N}"“‘']{1,2}\s*/u, '').replace(/\s*[^\p{L}\p{N}"”’'.!?)]{1,2}$/u, '').trim();
    return bareName && bareName !== spec.phrase && /[\p{L}\p{N}]/u.test(bareName) ? [{ ...spec, phrase: bareName }] : [];
  }
  if (!spec.phrase) return [];
  const out: DescribedTarget[] = [];
  // "the red bin icon" → "bin" (an icon), "the blue + button" → "+".
  const plain = spec.phrase.replace(LOOK_WORDS, '');
  if (plain !== spec.phrase) out.push({ ...spec, phrase: plain }, ...derivedLoose({ ...spec, phrase: plain }));
  const alone = pictureNameAlone(spec);
  if (alone) out.push(alone);
  // "the × close button", "+ Add a card": a glyph and the words for it. The glyph alone when the
  // words gloss it (close, delete, add), and the words alone (the glyph is often an icon of its own).
  const lead = /^([^\p{L}\p{N}\s"“‘'(]{1,2})\s+(\p{L}.*)$/u.exec(spec.phrase);
  const trail = /^(\p{L}.*?)\s+([^\p{L}\p{N}\s"”’')]{1,2})$/u.exec(spec.phrase);
  const [glyph, gloss] = lead ? [lead[1], lead[2]] : trail ? [trail[2], trail[1]] : ['', ''];
  if (glyph && !/[>→›]/.test(glyph)) {
    if (gloss.split(/\s+/).length <= 2 && isIconWords(gloss)) out.push({ ...spec, phrase: glyph });
    out.push({ ...spec, phrase: gloss });
  }
  // A menu path: "Move to > Archive".
  const path = spec.phrase.split(/\s*(?:>|→|›)\s*/).filter(Boolean);
  if (path.length > 1) out.push({ ...spec, phrase: path[path.length - 1], scope: path[path.length - 2] }, { ...spec, phrase: path[path.length - 1] });
  const m = /^(.+?)\s+(?:for|next to|beside|near|of|by|in|on|under|below)\s+(?:the\s+)?(?:user\s+|row\s+|item\s+)?(.+)$/i.exec(spec.phrase);
  // "the heart next to the bin icon", "the envelope next to the bin in Noor's row": a picture
  // placed by the picture beside it (a control, not a text).
  const pic = /^(.+?)\s+(?:right\s+|just\s+)?(?:next to|beside|besides|by)\s+(?:the\s+|a\s+)?(.+?)(?:\s+(?:icon|button|symbol|glyph))?$/i.exec(spec.phrase);
  // (Of any role: "icon" in the words hints an image, but people call any pictured control so.)
  const anyRole = spec.role === 'img' ? null : spec.role;
  if (pic && isIconWords(pic[1]) && isIconWords(pic[2])) out.push({ ...spec, role: anyRole, phrase: pic[1].replace(/\s+(?:icon|symbol|glyph)$/i, ''), nextTo: pic[2], icon: true });
  else if (spec.scope && !spec.within && isIconWords(spec.phrase) && isIconWords(spec.scope)) out.push({ ...spec, role: anyRole, scope: undefined, beside: undefined, nextTo: spec.scope, icon: true });
  if (m) {
    // "the Cooking checkbox under Interests", "the + next to Documents in the Files tree": the
    // place the words left in the name, inside the scope already read (if any).
    const head = m[1].replace(ROLE_NOUNS, '').replace(/\s+(?:folder|node|item|file|section|tab|chip|tag)$/i, '').trim() || m[1];
    const where = m[2].replace(CONTAINER_NOUNS, '').trim() || m[2];
    if (!spec.scope) out.push({ ...spec, phrase: m[1], scope: m[2] }, ...(head !== m[1] || where !== m[2] ? [{ ...spec, phrase: head, scope: where }] : []));
    else if (!spec.within) out.push({ ...spec, phrase: head, scope: where, within: spec.scope });
  }
  // "the Bug filter chip", "the Returns section": the kind nouns after the name, one by one.
  let kinded = spec.phrase;
  for (let i = 0; i < 3; i++) {
    const noun = /^(.+?)\s+(?:section|panel|menu|accordion|group|tab|dropdown|list|filter|view|chip|pill|tag|badge|card|tile|folder|node|tree ?item|tree node)$/i.exec(kinded);
    if (!noun) break;
    kinded = noun[1];
    out.push({ ...spec, phrase: kinded });
  }
  // "the Team plan under Plan", "the Large size in the Size group": the last word repeats the
  // scope's name; the words before it are the name.
  const last = /^(.+?)\s+([\p{L}-]+)$/u.exec(kinded);
  if (last && spec.scope && singular(last[2]) === singular(spec.scope)) out.push({ ...spec, phrase: last[1] });
  // "the Team plan card", "the Express shipping option": a word for what kind of choice it is,
  // which the page shows as the group's heading rather than on the choice (the prove stage
  // still wants it on the page around the choice).
  else if (last && !spec.scope && CHOICE_KINDS.test(last[2]) && (kinded !== spec.phrase || /^(?:plan|tier|package|subscription)s?$/i.test(last[2]))) out.push({ ...spec, phrase: last[1] });
  const words = spec.phrase.split(/\s+/);
  if (!spec.scope && words.length >= 2 && words.length <= 5) {
    for (let k = 1; k < words.length; k++) out.push({ ...spec, scope: words.slice(0, k).join(' '), phrase: words.slice(k).join(' ') });
  }
  // "in the Taxi to client office expense line": the word before the container noun says what
  // kind of row it is, not its text (whole texts only: the strict reading).
  const kindOfRow = spec.scope && !spec.quoted ? /^(.+\S)\s+(?:expense|task|todo|note|order|invoice|file|product|user|member|message|e-?mail|ticket|issue|project|item|entry|line|record|transaction|payment|booking|event)$/i.exec(spec.scope) : null;
  if (kindOfRow) out.push({ ...spec, scope: kindOfRow[1] });
  // "the empty Cost Centre box to the right of Department": a field's label is its name; where
  // it sits is colour when no container holds both (whole names only: the strict reading).
  // Only a place beside it: "the Employee field in the Mobile app row" is never the form's
  // Employee field (a silent wrong seen on a grid page).
  if (spec.scope && spec.beside && spec.role && ['textbox', 'combobox', 'searchbox', 'spinbutton'].includes(spec.role) && !spec.within && !spec.landmark) out.push({ ...spec, scope: undefined, beside: undefined });
  return out;
}

const CHOICE_KINDS = /^(?:plans?|tiers?|packages?|subscriptions?|levels?|sizes?|colou?rs?|themes?|modes?|methods?|speeds?|shipping|delivery|options?)$/i;
const singular = (w: string) => w.trim().toLowerCase().replace(/(?:e?s)$/, '');

/**
 * "Express shipping", "Large size": an option named by the first words in the group (fieldset,
 * radiogroup) the last words name — a radio only, its name starting with the words, the group's
 * own label exactly the rest. Never a button or a link: "Save draft" is not Save near "draft".
 */
export function groupOptionReadings(spec: DescribedTarget): DescribedTarget[] {
  if (!spec.phrase || spec.quoted || spec.scope || (spec.role && spec.role !== 'radio')) return [];
  const words = spec.phrase.split(/\s+/);
  if (words.length < 2 || words.length > 5) return [];
  const out: DescribedTarget[] = [];
  for (let k = words.length - 1; k >= 1; k--) out.push({ ...spec, role: 'radio', phrase: words.slice(0, k).join(' '), scope: words.slice(k).join(' '), group: true });
  return out;
}

/** The spec back in words, for messages. */
export function describeSpec(spec: DescribedTarget): string {
  const parts: string[] = [];
  if (spec.ordinal) parts.push(spec.ordinal === -1 ? 'the last' : `#${spec.ordinal}`);
  if (spec.phrase) parts.push(`"${spec.phrase}"`);
  if (spec.role) parts.push(spec.role);
  if (spec.column) parts.push(`in the "${spec.column}" column`);
  if (spec.scope) parts.push(`in/next to "${spec.scope}"`);
  if (spec.within) parts.push(`inside "${spec.within}"`);
  if (spec.showing) parts.push(`showing "${spec.showing}"`);
  if (spec.landmark) parts.push(`in the ${spec.landmark}`);
  return parts.join(' ');
}
