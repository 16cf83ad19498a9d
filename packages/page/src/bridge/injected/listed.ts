// Elements an analysis listed in its answer (inspect/dom's children, the DOM serializer's
// interactive elements), kept per call id so the host can read the refs Playwright gave
// them (targeting/selector.ts): whatever an agent finds, it can act on by ref.

let current: Element[] | null = null;
const kept = new Map<string, Element[]>();

/** Start recording for a call that asked for it (args.listId); other calls record nothing. */
export function beginListing(id: string | undefined): void {
  if (!id) {
    current = null;
    return;
  }
  current = [];
  kept.set(id, current);
  // Lists nobody fetched (a failed call) must not pile up.
  if (kept.size > 8) kept.delete(kept.keys().next().value as string);
}

export function endListing(): void {
  current = null;
}

/** Record an element at the next index (the answer's entries carry the same index). */
export function listed(el: Element): number {
  if (!current) return -1;
  current.push(el);
  return current.length - 1;
}

export function takeListed(id: string): Element[] {
  return kept.get(id) ?? [];
}

export function dropListed(id: string): void {
  kept.delete(id);
}
