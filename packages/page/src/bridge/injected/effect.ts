// What an action did to one frame's document, watched from the isolated world (page
// scripts can neither see nor disturb it): DOM mutations, field values (input/change
// events), the focused element, and — for a click — whether the click event's composed
// path contained the element the action aimed at. A click can "succeed" for the browser
// while the page's handler never runs: a blur handler that pushes the button down
// between press and release sends the click to a common ancestor; an overlay that
// appears on hover takes it. Events and mutations are DOM-level, so a listener here sees
// exactly what the page sees.

interface Watch {
  mo: MutationObserver;
  mutations: number;
  values: number;
  focusBefore: Element | null;
  target: Element | null;
  clicks: number;
  reached: number;
  /** The first element that received a click which did not pass through the target. */
  missedBy: Element | null;
  off: () => void;
}

const watches = new Map<string, Watch>();

function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** `button#send.primary "Send"`: enough for a person to find the element. */
export function describeElement(el: Element): string {
  const tag = el.tagName.toLowerCase();
  const id = el.id ? `#${el.id}` : '';
  const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
  const label = el.getAttribute('aria-label') || el.getAttribute('title') || '';
  const text = (label || (el as HTMLElement).innerText || el.textContent || '').trim().replace(/\s+/g, ' ');
  return `${tag}${id}${cls}${text ? ` "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"` : ''}`;
}

function stopWatch(id: string): void {
  const w = watches.get(id);
  if (!w) return;
  w.off();
  watches.delete(id);
}

export function startWatch(id: string, target: Element | null): { started: true } {
  stopWatch(id);
  // A watch whose action failed half-way is never read: keep the map bounded.
  if (watches.size > 16) stopWatch(watches.keys().next().value as string);
  const w: Watch = {
    mo: new MutationObserver((records) => {
      w.mutations += records.length;
    }),
    mutations: 0,
    values: 0,
    focusBefore: deepActive(),
    target,
    clicks: 0,
    reached: 0,
    missedBy: null,
    off: () => {},
  };
  w.mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const onValue = () => {
    w.values++;
  };
  const onClick = (e: Event) => {
    if (!e.isTrusted) return;
    w.clicks++;
    const path = e.composedPath();
    if (!w.target || path.includes(w.target)) w.reached++;
    else if (!w.missedBy && path[0] && (path[0] as Node).nodeType === 1) w.missedBy = path[0] as Element;
  };
  window.addEventListener('input', onValue, true);
  window.addEventListener('change', onValue, true);
  window.addEventListener('click', onClick, true);
  w.off = () => {
    w.mo.disconnect();
    window.removeEventListener('input', onValue, true);
    window.removeEventListener('change', onValue, true);
    window.removeEventListener('click', onClick, true);
  };
  watches.set(id, w);
  return { started: true };
}

export interface WatchReading {
  gone?: true;
  mutations: number;
  values: number;
  focus: boolean;
  clicks: number;
  reached: number;
  receivedBy?: string;
  /** The target is still in the document (a click that re-rendered it may have replaced it). */
  targetConnected?: boolean;
}

export function readWatch(id: string, stop: boolean): WatchReading | { gone: true } {
  const w = watches.get(id);
  if (!w) return { gone: true };
  const reading: WatchReading = {
    mutations: w.mutations + w.mo.takeRecords().length,
    values: w.values,
    focus: deepActive() !== w.focusBefore,
    clicks: w.clicks,
    reached: w.reached,
    ...(w.missedBy ? { receivedBy: describeElement(w.missedBy) } : {}),
    ...(w.target ? { targetConnected: w.target.isConnected } : {}),
  };
  if (stop) stopWatch(id);
  return reading;
}

/** The element that took a missed click (for its ref, read by the host in Playwright's world). */
export function missedBy(id: string): Element | null {
  return watches.get(id)?.missedBy ?? null;
}
