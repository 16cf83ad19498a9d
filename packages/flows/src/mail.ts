import type { InboxStore, Inbox, StoredMessage } from '@ariadne/inbox';

// The run's inbox, as flows see it: created on first use (a "Sign up with a new email
// address" step, a create_temp_email call, or a step that uses {{EMAIL}}), kept for the
// whole run so a later case can log in with the address an earlier one signed up with,
// and read with a cursor, so "the code from the email" is the newest unread one rather
// than one from an earlier step.

export interface FlowMail {
  /** The run's address, creating the inbox on first use. */
  address(): Promise<string>;
  /** The address if the inbox exists already (no creation). */
  current(): string | null;
  /**
   * Waits for the first message after the cursor that passes `match` (bounded); with
   * `consume`, moves the cursor past it. Null when none came in time.
   */
  next(opts: { match?: (m: StoredMessage) => boolean; timeoutMs: number; consume?: boolean; signal?: AbortSignal }): Promise<StoredMessage | null>;
  /** Every message so far (for "an email arrived from ..."), waiting up to timeoutMs for one that matches. */
  any(opts: { match: (m: StoredMessage) => boolean; timeoutMs: number; signal?: AbortSignal }): Promise<StoredMessage | null>;
  /** What the inbox holds now, for a failure message. */
  summary(): Promise<{ address: string | null; messages: { from: string; subject: string; code?: string; link?: string }[] }>;
}

export function inboxFlowMail(store: InboxStore, tenant: string, ttlSeconds: number): FlowMail {
  let inbox: Inbox | null = null;
  let creating: Promise<Inbox> | null = null;
  let cursor = 0;
  const ensure = async (): Promise<Inbox> => {
    if (inbox) return inbox;
    creating ??= store.create(tenant, ttlSeconds).then((i) => (inbox = i));
    return creating;
  };
  return {
    async address() {
      return (await ensure()).address;
    },
    current: () => inbox?.address ?? null,
    async next(o) {
      const box = await ensure();
      const all = await store.waitForMessage(box, { after: cursor, timeoutMs: o.timeoutMs, match: o.match, signal: o.signal });
      if (all && o.consume) {
        const list = await store.messages(box);
        const i = list.findIndex((m) => m.id === all.id);
        if (i >= 0) cursor = i + 1;
      }
      return all;
    },
    async any(o) {
      const box = await ensure();
      return store.waitForMessage(box, { after: 0, timeoutMs: o.timeoutMs, match: o.match, signal: o.signal });
    },
    async summary() {
      if (!inbox) return { address: null, messages: [] };
      const list = await store.messages(inbox);
      return {
        address: inbox.address,
        messages: list.slice(-10).map((m) => ({ from: m.from, subject: m.subject, ...(m.code ? { code: m.code.code } : {}), ...(m.link ? { link: m.link.url } : {}) })),
      };
    },
  };
}
