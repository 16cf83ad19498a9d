import { Type, type Static } from 'typebox';
import { Cookie } from './sessions.js';

// Schemas for the page operations under /v1/sessions/:id/roles/:role/.

export const PageQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 64, description: 'Tab id; default is the active tab.' })),
});

export const SnapshotFormat = Type.Union([Type.Literal('yaml'), Type.Literal('json'), Type.Literal('text')]);

export const SnapshotQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 64 })),
  maxTokens: Type.Optional(Type.Integer({ minimum: 50, maximum: 1_000_000, default: 8000 })),
  ref: Type.Optional(Type.String({ maxLength: 32, description: 'Only the subtree of this ref.' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: "Page through a wide node: its children (with ref) or the page's top-level nodes from this index; fold lines give the next offset." })),
  depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  format: Type.Optional(SnapshotFormat),
  diff: Type.Optional(Type.Boolean({ description: "Only what changed since this page's previous snapshot." })),
});
export type SnapshotQuery = Static<typeof SnapshotQuery>;

export const SnapshotDiff = Type.Object({
  since: Type.Union([Type.String(), Type.Null()], { description: 'Snapshot id the diff is against.' }),
  added: Type.Array(
    Type.Object({
      ref: Type.String(),
      role: Type.String(),
      name: Type.Optional(Type.String({ description: 'The name a person reads (accessible or inferred).' })),
      text: Type.Optional(Type.String({ description: 'Its text, bounded (120 chars).' })),
      parentRef: Type.Optional(Type.String()),
    }),
  ),
  removed: Type.Array(Type.Object({ ref: Type.String(), role: Type.String(), name: Type.Optional(Type.String()) })),
  changed: Type.Array(
    Type.Object({
      ref: Type.String(),
      role: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
      summary: Type.String({ description: 'What changed, in words: text "A" → "B"; checked false → true.' }),
      before: Type.Any(),
      after: Type.Any(),
    }),
  ),
  unchanged: Type.Integer({ description: 'Count of ref nodes that did not change.' }),
});

export const Truncation = Type.Object({
  omittedNodes: Type.Integer(),
  omittedRefs: Type.Integer(),
  collapsed: Type.Array(
    Type.Object({
      ref: Type.String(),
      role: Type.String(),
      name: Type.Optional(Type.String()),
      nodes: Type.Integer(),
      refs: Type.Integer(),
      more: Type.Optional(Type.Integer({ description: 'On a fold: how many children of ref were left out.' })),
      offset: Type.Optional(Type.Integer({ description: 'On a fold: pass with ref to page on to the children left out.' })),
    }),
    { description: 'Subtrees left out, largest first: pass one as ?ref= (and ?offset= on a fold) to see it.' },
  ),
  hint: Type.String(),
});

export const PendingDialog = Type.Object({
  type: Type.String(),
  message: Type.String(),
  defaultValue: Type.Optional(Type.String()),
});

export const SnapshotResponse = Type.Object({
  snapshotId: Type.String(),
  pageId: Type.String(),
  url: Type.String(),
  title: Type.String(),
  format: SnapshotFormat,
  snapshot: Type.Optional(Type.Any({ description: 'YAML or text string, or the JSON tree.' })),
  diff: Type.Optional(SnapshotDiff),
  tokens: Type.Integer({ description: 'Estimated tokens of this response body (chars / 4).' }),
  totalNodes: Type.Integer(),
  totalRefs: Type.Integer(),
  truncated: Type.Boolean(),
  truncation: Type.Optional(Truncation),
});
export type SnapshotResponse = Static<typeof SnapshotResponse>;

export const ACTIONS = [
  'navigate', 'back', 'forward', 'reload',
  'click', 'hover', 'type', 'fill', 'clear', 'press', 'select', 'check', 'uncheck',
  'upload', 'drag', 'scroll', 'wait_for', 'handle_dialog', 'screenshot', 'evaluate',
] as const;
export type ActionName = (typeof ACTIONS)[number];

const Modifier = Type.Union(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'].map((m) => Type.Literal(m)));

export const UploadFile = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    mimeType: Type.Optional(Type.String({ maxLength: 255 })),
    contentBase64: Type.String({ description: 'File content, base64.' }),
  },
  { additionalProperties: false },
);

export const ActionBody = Type.Object(
  {
    action: Type.Union(ACTIONS.map((a) => Type.Literal(a))),
    ref: Type.Optional(Type.String({ maxLength: 32, description: 'Target ref from the latest snapshot.' })),
    selector: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description: 'Target by Playwright selector (css=, xpath=, text=, role=, `>>` chains, :has(); testid:x shorthands). It must match exactly one element, else ambiguous_target with the candidates and their refs.',
      }),
    ),
    description: Type.Optional(
      Type.String({ maxLength: 500, description: 'Fallback when no ref: resolved by the description ladder.' }),
    ),
    url: Type.Optional(Type.String({ maxLength: 8192 })),
    value: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Array(Type.String(), { maxItems: 100 })], { description: 'fill, select: the value to enter or choose. type takes it when "text" is missing.' })),
    text: Type.Optional(Type.String({ maxLength: 100_000, description: 'type: the text to type (fill takes it when "value" is missing); wait_for: text that must appear.' })),
    key: Type.Optional(Type.String({ maxLength: 100 })),
    targetRef: Type.Optional(Type.String({ maxLength: 32 })),
    targetSelector: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'drag: the drop target by selector (exactly one match).' })),
    targetDescription: Type.Optional(Type.String({ maxLength: 500 })),
    function: Type.Optional(
      Type.String({
        maxLength: 100_000,
        description: 'evaluate: a JavaScript function, `() => …` on the page or `(element) => …` with a target; its result comes back serialized and bounded. Off when ALLOW_EVALUATE=0.',
      }),
    ),
    button: Type.Optional(Type.Union([Type.Literal('left'), Type.Literal('right'), Type.Literal('middle')])),
    modifiers: Type.Optional(Type.Array(Modifier, { maxItems: 5 })),
    double: Type.Optional(Type.Boolean()),
    append: Type.Optional(Type.Boolean({ description: 'type: keep the current value and type after it (default false: replace).' })),
    submit: Type.Optional(Type.Boolean({ description: 'type, fill: press Enter once the page has taken the text, and check that it reacted (else no_effect).' })),
    by: Type.Optional(Type.Union([Type.Literal('value'), Type.Literal('label')], { description: 'select: match options by value or label (default: either).' })),
    files: Type.Optional(Type.Array(UploadFile, { maxItems: 20 })),
    direction: Type.Optional(Type.Union(['up', 'down', 'left', 'right', 'top', 'bottom'].map((d) => Type.Literal(d)))),
    amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'scroll: pixels (default 600).' })),
    textGone: Type.Optional(Type.String({ maxLength: 1000, description: 'wait_for: text that must disappear.' })),
    time: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, description: 'wait_for: milliseconds to wait.' })),
    accept: Type.Optional(Type.Boolean({ description: 'handle_dialog: accept (true) or dismiss (false).' })),
    promptText: Type.Optional(Type.String({ maxLength: 10_000 })),
    format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('jpeg')])),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
    snapshot: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('diff'), Type.Literal('full')])),
    maxTokens: Type.Optional(Type.Integer({ minimum: 50, maximum: 1_000_000 })),
    settle: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('none'), Type.Integer({ minimum: 0, maximum: 30_000 })], {
        description:
          "After the action, wait until the page has settled: the requests it started are done and the DOM has then been quiet for 25 ms. 'auto' (default) caps the wait at 2 s, a number caps it at that many ms, 'none' (or 0) returns at once.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ActionBody = Static<typeof ActionBody>;

export const SettleReport = Type.Object({
  state: Type.Union([Type.Literal('quiet'), Type.Literal('cap'), Type.Literal('none')], { description: 'quiet: settled; cap: still busy when the cap was reached; none: not asked to wait.' }),
  waitedMs: Type.Number(),
  requests: Type.Integer({ description: 'Requests started by the action that were waited for.' }),
  mutations: Type.Integer({ description: 'DOM mutations seen while checking that the DOM was quiet.' }),
});

export const ActionEffect = Type.Object(
  {
    changed: Type.Boolean({ description: 'The page reacted: DOM, URL, focus, a field value or the network. false: nothing happened.' }),
    navigated: Type.Boolean(),
    requests: Type.Integer({ description: 'Requests the page started during the action and its settle wait.' }),
    dom: Type.Optional(Type.Integer({ description: 'DOM mutations seen (absent when the document could not be watched).' })),
    focus: Type.Optional(Type.Boolean({ description: 'The focused element changed.' })),
    values: Type.Optional(Type.Boolean({ description: 'A field value changed (input/change events).' })),
    url: Type.Optional(Type.String({ description: 'The new URL when it changed.' })),
  },
  { description: 'What the action did to the page.' },
);
export type ActionEffect = Static<typeof ActionEffect>;

export const ActionResponse = Type.Object({
  ok: Type.Boolean(),
  action: Type.String(),
  pageId: Type.String(),
  url: Type.String(),
  title: Type.String(),
  target: Type.Optional(
    Type.Object({
      ref: Type.Optional(Type.String()),
      resolvedBy: Type.String({ description: 'ref, selector, or the ladder rung that matched the description.' }),
      locator: Type.Optional(Type.String()),
      role: Type.Optional(Type.String({ description: 'Role of the element a description resolved to.' })),
      name: Type.Optional(Type.String({ description: 'Its name (or the text next to an unnamed control).' })),
      why: Type.Optional(Type.String({ description: 'Why this element: what matched on which rung.' })),
    }),
  ),
  durationMs: Type.Number(),
  navigated: Type.Boolean(),
  dialog: Type.Optional(PendingDialog),
  newPages: Type.Optional(Type.Array(Type.String())),
  result: Type.Optional(Type.Any()),
  settle: Type.Optional(SettleReport),
  effect: Type.Optional(ActionEffect),
  snapshot: Type.Optional(SnapshotResponse),
});

export const ScreenshotQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 64 })),
  format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('jpeg')])),
  quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  fullPage: Type.Optional(Type.Boolean()),
  ref: Type.Optional(Type.String({ maxLength: 32 })),
});

export const ConsoleQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 64 })),
  level: Type.Optional(Type.String({ maxLength: 64, description: 'Comma list: log, info, warning, error, debug, pageerror.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')])),
});

export const NetworkQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 64 })),
  type: Type.Optional(Type.String({ maxLength: 128, description: 'Comma list of resource types: document, xhr, fetch, script, ...' })),
  failed: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')])),
});

export const NetworkDetailParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  role: Type.String({ maxLength: 64 }),
  requestId: Type.String({ maxLength: 64 }),
});

export const NetworkDetailQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 64 })),
  maxBodyBytes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 65536 })),
});

export const CookiesBody = Type.Object(
  {
    cookies: Type.Array(Cookie, { maxItems: 500 }),
    clear: Type.Optional(Type.Boolean({ description: 'Remove all cookies first.' })),
  },
  { additionalProperties: false },
);

export const StorageQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 64 })),
  type: Type.Optional(Type.Union([Type.Literal('local'), Type.Literal('session')])),
});
