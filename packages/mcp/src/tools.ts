import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AriadneCallError, jsonOf } from './backend.js';
import type { BrowserState } from './browser-state.js';
import { effectInWords, errorResult, renderAction, renderFacts, renderRun, renderSnapshot, textResult } from './format.js';

// The tools. Each one is a thin call of an existing Ariadne operation over its HTTP API:
// Playwright MCP's names and argument shapes where both have the operation, Verdex's for
// exploration and roles, seed 002's for inspection. Nothing is implemented twice here:
// arguments are mapped to the REST call, answers to compact text.

export interface ToolOptions {
  /** Whether browser_file_upload may read `paths` from this machine (stdio only). */
  allowLocalFiles: boolean;
  /** Budget of browser_snapshot when the caller gives none. */
  snapshotMaxTokens: number;
}

const target = z
  .string()
  .max(2000)
  .optional()
  .describe('Exact target element reference from the page snapshot (e.g. e12), or a unique element selector (Playwright syntax: css=…, text=…, role=…, xpath=…, `>>` chains, :has())');
const element = z
  .string()
  .max(1000)
  .optional()
  .describe('Human-readable element description; used to find the element (role and name, label, text, ...) when no target ref is given');
const maxTokens = z.number().int().min(50).max(200_000).optional().describe('Token budget of the answer (≈ chars/4)');
const snapshotAfter = z
  .enum(['none', 'diff', 'full'])
  .optional()
  .describe('What to show of the page after the action: diff (default: what changed, by ref), full (a new snapshot) or none');
const ref = z.string().max(64).describe('Element ref from the latest snapshot (e.g. e12)');
const level = z.number().int().min(1).max(100).describe('Ancestor level (1 = parent), from resolve_container');
const selectorOrRef = {
  ref: z.string().max(64).optional().describe('Element ref from the snapshot'),
  selector: z.string().max(2000).optional().describe('Selector: testid:x, CSS, text=..., role=...'),
};

type Handler = (args: any) => Promise<CallToolResult>;

/** Refs look like e12 or f1e3 (frames); anything else in `target` is a selector. */
const REF = /^(?:f\d+)?e\d+$/;

function targetOf(args: { target?: string; element?: string }, what = 'target'): { ref: string } | { selector: string } | { description: string } {
  if (args.target) return REF.test(args.target.trim()) ? { ref: args.target.trim() } : { selector: args.target };
  if (args.element) return { description: args.element };
  throw new AriadneCallError(400, 'invalid_request', `Give ${what} (a ref from browser_snapshot) or element (a description).`, { field: what });
}

export function registerTools(server: McpServer, state: BrowserState, opts: ToolOptions): string[] {
  const names: string[] = [];
  const tool = (name: string, description: string, shape: z.ZodRawShape, readOnly: boolean, handler: Handler) => {
    names.push(name);
    server.registerTool(
      name,
      { description, inputSchema: shape, annotations: { readOnlyHint: readOnly, openWorldHint: true } },
      (async (args: any) => {
        try {
          return await handler(args ?? {});
        } catch (err) {
          return errorResult(err);
        }
      }) as never,
    );
  };

  const act = async (body: Record<string, unknown>, after: 'none' | 'diff' | 'full' = 'diff', budget?: number) => {
    const p = await state.rolePath();
    const r = await state.call('POST', `${p}/actions`, { body: { ...body, snapshot: after === 'full' ? 'none' : after, ...(after === 'diff' && budget ? { maxTokens: budget } : {}) } });
    let text = renderAction(r);
    if (after === 'full') text += `\n${renderSnapshot(await state.call('GET', `${p}/snapshot`, { query: { format: 'text', maxTokens: budget ?? opts.snapshotMaxTokens } }))}`;
    return textResult(text);
  };
  const get = async (sub: string, query: Record<string, any> = {}) => state.call('GET', `${await state.rolePath()}/${sub}`, { query });
  const facts = async (sub: string, query: Record<string, any> = {}) => textResult(renderFacts(await get(sub, { format: 'text', ...query })));

  // ── Playwright MCP's tools ────────────────────────────────────────────────────
  // The answer carries the page's snapshot (bounded as browser_snapshot's), so the first action needs no extra call.
  tool('browser_navigate', 'Navigate to a URL; answers with the page\'s snapshot (elements carry [eN] refs to act on)', { url: z.string().max(8192).describe('The URL to navigate to'), maxTokens }, false, (a) =>
    act({ action: 'navigate', url: a.url }, 'full', a.maxTokens),
  );
  tool('browser_navigate_back', 'Go back to the previous page', {}, false, () => act({ action: 'back' }, 'none'));
  tool(
    'browser_snapshot',
    'Capture the accessibility snapshot of the current page (elements carry [eN] refs to act on). Bounded by maxTokens: a fold line says what was left out; page through a node with target + offset.',
    {
      target: z.string().max(64).optional().describe('Only the subtree of this ref'),
      depth: z.number().int().min(0).max(1000).optional().describe('Limit the depth of the snapshot tree'),
      offset: z.number().int().min(0).optional().describe('With target: that node\'s children from this index'),
      diff: z.boolean().optional().describe('Only what changed since the previous snapshot of this tab'),
      maxTokens,
    },
    true,
    async (a) =>
      textResult(renderSnapshot(await get('snapshot', { format: 'text', ref: a.target, depth: a.depth, offset: a.offset, diff: a.diff, maxTokens: a.maxTokens ?? opts.snapshotMaxTokens }))),
  );
  tool(
    'browser_click',
    'Perform click on a web page element',
    {
      target,
      element,
      doubleClick: z.boolean().optional().describe('Whether to perform a double click instead of a single click'),
      button: z.enum(['left', 'right', 'middle']).optional().describe('Button to click, defaults to left'),
      modifiers: z.array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'])).optional().describe('Modifier keys to press'),
      snapshot: snapshotAfter,
      maxTokens,
    },
    false,
    (a) => act({ action: 'click', ...targetOf(a), button: a.button, modifiers: a.modifiers, double: a.doubleClick }, a.snapshot, a.maxTokens),
  );
  tool(
    'browser_type',
    'Type text into editable element (replaces its content; slowly: key by key)',
    {
      target,
      element,
      text: z.string().max(100_000).describe('Text to type into the element'),
      submit: z.boolean().optional().describe('Whether to submit entered text (press Enter after)'),
      slowly: z.boolean().optional().describe('Whether to type one character at a time (triggers key handlers). By default the text is filled in at once.'),
      snapshot: snapshotAfter,
      maxTokens,
    },
    false,
    async (a) => {
      const t = targetOf(a);
      // With submit, the service presses Enter once the page has taken the text and
      // checks that it reacted (no_effect otherwise): one action either way.
      if (a.slowly) return act({ action: 'type', ...t, text: a.text, submit: a.submit }, a.snapshot, a.maxTokens);
      return act({ action: 'fill', ...t, value: a.text, ...(a.submit ? { submit: true } : {}) }, a.snapshot, a.maxTokens);
    },
  );
  tool(
    'browser_fill_form',
    'Fill multiple form fields',
    {
      fields: z
        .array(
          z.object({
            name: z.string().max(1000).describe('Human-readable field name (used to find the field when no target is given)'),
            type: z.enum(['textbox', 'checkbox', 'radio', 'combobox', 'slider']).describe('Type of the field'),
            target: z.string().max(2000).optional().describe('Exact target element reference from the page snapshot, or a unique selector'),
            value: z.string().max(100_000).describe('Value; checkbox/radio: "true" or "false"; combobox: the text of the option'),
          }),
        )
        .min(1)
        .max(100)
        .describe('Fields to fill in'),
      snapshot: snapshotAfter,
    },
    false,
    async (a) => {
      const out: string[] = [];
      for (const f of a.fields) {
        const t = targetOf({ target: f.target, element: f.name });
        const body =
          f.type === 'checkbox' || f.type === 'radio'
            ? { action: f.value === 'true' ? 'check' : 'uncheck', ...t }
            : f.type === 'combobox'
              ? { action: 'select', ...t, value: f.value, by: 'label' }
              : { action: 'fill', ...t, value: f.value };
        const r = await act(body, 'none');
        out.push(`${f.name}: ${(r.content[0] as { text: string }).text.split('\n')[0]}`);
      }
      if (a.snapshot && a.snapshot !== 'none') out.push(renderSnapshot(await get('snapshot', { format: 'text', diff: a.snapshot === 'diff', maxTokens: opts.snapshotMaxTokens })));
      return textResult(out.join('\n'));
    },
  );
  tool(
    'browser_select_option',
    'Select an option in a dropdown',
    { target, element, values: z.array(z.string().max(10_000)).min(1).max(100).describe('Values to select (option values or labels)'), snapshot: snapshotAfter, maxTokens },
    false,
    (a) => act({ action: 'select', ...targetOf(a), value: a.values.length === 1 ? a.values[0] : a.values }, a.snapshot, a.maxTokens),
  );
  tool(
    'browser_press_key',
    'Press a key on the keyboard',
    { key: z.string().max(100).describe('Name of the key to press or a character to generate, such as `ArrowLeft` or `a`'), target, element, snapshot: snapshotAfter, maxTokens },
    false,
    (a) => act({ action: 'press', key: a.key, ...(a.target || a.element ? targetOf(a) : {}) }, a.snapshot, a.maxTokens),
  );
  tool('browser_hover', 'Hover over element on page', { target, element, snapshot: snapshotAfter, maxTokens }, false, (a) =>
    act({ action: 'hover', ...targetOf(a) }, a.snapshot, a.maxTokens),
  );
  tool(
    'browser_drag',
    'Perform drag and drop between two elements',
    {
      startTarget: z.string().max(2000).optional().describe('Source element ref, or a unique selector'),
      startElement: z.string().max(1000).optional().describe('Source element description'),
      endTarget: z.string().max(2000).optional().describe('Target element ref, or a unique selector'),
      endElement: z.string().max(1000).optional().describe('Target element description'),
      snapshot: snapshotAfter,
      maxTokens,
    },
    false,
    (a) => {
      const end = a.endTarget ? (REF.test(a.endTarget.trim()) ? { targetRef: a.endTarget.trim() } : { targetSelector: a.endTarget }) : a.endElement ? { targetDescription: a.endElement } : null;
      if (!end) throw new AriadneCallError(400, 'invalid_request', 'Give endTarget (a ref) or endElement (a description).', { field: 'endTarget' });
      return act({ action: 'drag', ...targetOf({ target: a.startTarget, element: a.startElement }, 'startTarget'), ...end }, a.snapshot, a.maxTokens);
    },
  );
  tool(
    'browser_file_upload',
    `Upload files into a file input (target: its ref; or element: its label). ${opts.allowLocalFiles ? 'paths: absolute paths on this machine; or ' : ''}files: name + base64 content.`,
    {
      target,
      element,
      paths: z.array(z.string().max(4096)).max(20).optional().describe('Absolute paths of the files to upload (stdio server only: read on the machine running it)'),
      files: z
        .array(z.object({ name: z.string().max(255), mimeType: z.string().max(255).optional(), contentBase64: z.string() }))
        .max(20)
        .optional()
        .describe('Files as name + base64 content'),
    },
    false,
    async (a) => {
      const files = [...(a.files ?? [])];
      if (a.paths?.length) {
        if (!opts.allowLocalFiles)
          throw new AriadneCallError(400, 'invalid_request', 'This MCP server runs inside Ariadne and cannot read files from your machine: pass files (name + contentBase64).', { field: 'paths' });
        for (const p of a.paths) files.push({ name: path.basename(p), contentBase64: (await readFile(p)).toString('base64') });
      }
      if (!files.length) throw new AriadneCallError(400, 'invalid_request', 'Give paths or files to upload.', { field: 'files' });
      if (!a.target && !a.element) {
        // No file-chooser state to fall back on (Playwright MCP's click-then-upload): the input must be named.
        throw new AriadneCallError(400, 'invalid_request', 'Give target (the file input\'s ref) or element (its label).', {
          field: 'target',
          hint: 'In browser_snapshot a file input shows as a button named by its label, e.g. button "Avatar" [e18].',
        });
      }
      const t = targetOf(a);
      return act({ action: 'upload', ...t, files }, 'diff');
    },
  );
  tool(
    'browser_evaluate',
    'Evaluate a JavaScript function on the page, or on one element (target); the result comes back as JSON, bounded',
    {
      function: z.string().max(100_000).describe('() => { /* code */ } or (element) => { /* code */ } when a target is given'),
      target,
      element,
    },
    false,
    async (a) => {
      const t = a.target || a.element ? targetOf(a) : {};
      const p = await state.rolePath();
      const r = await state.call('POST', `${p}/actions`, { body: { action: 'evaluate', function: a.function, ...t, snapshot: 'none' } });
      const res = r.result ?? {};
      const shown = res.truncated ? `${String(res.value)}… [cut: ${res.chars} chars in all]` : res.value === null && res.type !== 'null' ? `undefined (${res.type})` : JSON.stringify(res.value, null, 1);
      const lines = [`Result (${res.type}):`, shown ?? 'undefined'];
      const effect = effectInWords(r.effect);
      if (effect && r.effect?.changed) lines.push(effect);
      return textResult(lines.join('\n'));
    },
  );
  tool(
    'browser_handle_dialog',
    'Handle a dialog (alert, confirm, prompt)',
    { accept: z.boolean().describe('Whether to accept the dialog.'), promptText: z.string().max(10_000).optional().describe('The text of the prompt in case of a prompt dialog.') },
    false,
    (a) => act({ action: 'handle_dialog', accept: a.accept, promptText: a.promptText }, 'diff'),
  );
  tool(
    'browser_tabs',
    'List, create, close, or select a browser tab.',
    {
      action: z.enum(['list', 'new', 'close', 'select']).describe('Operation to perform'),
      index: z.number().int().min(0).optional().describe('Tab index, used for close/select. If omitted for close, current tab is closed.'),
      url: z.string().max(8192).optional().describe('URL to navigate to in the new tab, used for new.'),
    },
    false,
    async (a) => {
      const p = await state.rolePath();
      const list = async () => (await state.call<{ pages: { id: string; url: string; title: string; active: boolean }[] }>('GET', `${p}/pages`)).pages;
      let pages = await list();
      const pick = (i: number | undefined) => {
        const pg = i === undefined ? pages.find((x) => x.active) : pages[i];
        if (!pg) throw new AriadneCallError(404, 'page_not_found', `No tab at index ${i} (there are ${pages.length}).`, { index: i, tabs: pages.length });
        return pg;
      };
      if (a.action === 'new') await state.call('POST', `${p}/pages`, { body: a.url ? { url: a.url } : {} });
      else if (a.action === 'close') await state.call('DELETE', `${p}/pages/${pick(a.index).id}`);
      else if (a.action === 'select') await state.call('POST', `${p}/pages/${pick(a.index).id}/select`);
      if (a.action !== 'list') pages = await list();
      return textResult(pages.map((x, i) => `${i}: ${x.active ? '(current) ' : ''}[${x.title}] ${x.url} (${x.id})`).join('\n'));
    },
  );
  tool(
    'browser_wait_for',
    'Wait for text to appear or disappear or a specified time to pass',
    {
      time: z.number().min(0).max(60).optional().describe('The time to wait in seconds'),
      text: z.string().max(1000).optional().describe('The text to wait for'),
      textGone: z.string().max(1000).optional().describe('The text to wait for to disappear'),
    },
    false,
    (a) => {
      if (a.time === undefined && !a.text && !a.textGone) throw new AriadneCallError(400, 'invalid_request', 'Give text, textGone or time.', { field: 'text' });
      return act({ action: 'wait_for', text: a.text, textGone: a.textGone, time: a.time === undefined ? undefined : Math.round(a.time * 1000) }, 'none');
    },
  );
  tool(
    'browser_take_screenshot',
    "Take a screenshot of the current page or of one element (target). You can't perform actions based on the screenshot, use browser_snapshot for actions.",
    {
      target: z.string().max(64).optional().describe('Ref of one element to screenshot'),
      element: z.string().max(1000).optional().describe('Description of that element (informational)'),
      type: z.enum(['png', 'jpeg']).optional().describe('Image format, png by default'),
      fullPage: z.boolean().optional().describe('The full scrollable page instead of the viewport'),
    },
    true,
    async (a) => {
      const p = await state.rolePath();
      const ans = await state.raw('GET', `${p}/screenshot`, { format: a.type ?? 'png', fullPage: a.fullPage, ref: a.target });
      if (ans.status !== 200) jsonOf(ans);
      const mime = ans.contentType.split(';')[0] || `image/${a.type ?? 'png'}`;
      return { content: [{ type: 'image', data: ans.body.toString('base64'), mimeType: mime }] };
    },
  );
  tool(
    'browser_console_messages',
    'Returns console messages and page errors (newest last, bounded)',
    {
      level: z.enum(['error', 'warning', 'info', 'debug']).optional().describe('Level of the messages to return; each level includes the more severe ones. Defaults to "info".'),
      limit: z.number().int().min(1).max(1000).optional().describe('At most this many (default 100)'),
    },
    true,
    (a) => {
      const levels: Record<string, string | undefined> = {
        error: 'error,pageerror',
        warning: 'error,pageerror,warning',
        info: 'error,pageerror,warning,info,log',
        debug: undefined,
      };
      return facts('console', { level: levels[a.level ?? 'info'], limit: a.limit });
    },
  );
  tool(
    'browser_network_requests',
    'Returns the network requests of the current tab (recent first, bounded). Use browser_network_request with an id for headers and bodies.',
    {
      static: z.boolean().optional().describe('Whether to include static resources (images, fonts, scripts, styles). Defaults to false.'),
      failed: z.boolean().optional().describe('Only failed requests'),
      filter: z.string().max(1000).optional().describe('Only requests whose URL matches this regexp (e.g. "/api/.*user")'),
      limit: z.number().int().min(1).max(1000).optional().describe('At most this many (default 100)'),
    },
    true,
    async (a) => {
      const out = await get('network', { format: 'text', type: a.static ? undefined : 'document,xhr,fetch,websocket,eventsource,other', failed: a.failed, limit: a.limit });
      if (!a.filter) return textResult(renderFacts(out));
      let re: RegExp;
      try {
        re = new RegExp(a.filter);
      } catch (err) {
        throw new AriadneCallError(400, 'invalid_request', `filter is not a regular expression: ${(err as Error).message}`, { field: 'filter' });
      }
      const [head, ...lines] = String(out.text ?? '').split('\n');
      const kept = lines.filter((l) => re.test(l.split(' ').find((w) => /^[a-z]+:\/\//.test(w)) ?? l));
      return textResult(renderFacts(`${head}\nMatching ${JSON.stringify(a.filter)}: ${kept.length}\n${kept.join('\n')}`));
    },
  );
  tool(
    'browser_network_request',
    'Full details (headers, truncated bodies) of one request from browser_network_requests',
    { id: z.string().max(64).describe('Request id, e.g. r3'), maxBodyBytes: z.number().int().min(0).max(1_000_000).optional() },
    true,
    async (a) => textResult(renderFacts(await get(`network/${encodeURIComponent(a.id)}`, { maxBodyBytes: a.maxBodyBytes ?? 4000 }))),
  );
  tool('browser_close', 'Close the browser: ends this client\'s Ariadne session (a later call starts a new one)', {}, false, async () =>
    textResult((await state.endSession()) ? 'Browser session closed.' : 'No browser session was open.'),
  );

  // ── Verdex: exploration and roles ───────────────────────────────────────────
  tool(
    'resolve_container',
    'Structure around a ref: its ancestor chain up to body, with tags, stable attributes (data-testid, id, role, aria-label), child counts and refs per level. Step 1 of container → pattern → anchors.',
    { ref, maxRefs: z.number().int().min(0).max(50).optional(), maxTokens },
    true,
    (a) => facts('explore/container', { ref: a.ref, maxRefs: a.maxRefs, maxTokens: a.maxTokens }),
  );
  tool(
    'inspect_pattern',
    'The ancestor `level` steps up from ref and its children side by side (text, shallow outline, which one holds the target): is this a repeated card, row or item? Step 2.',
    { ref, level, maxSiblings: z.number().int().min(1).max(200).optional(), maxTokens },
    true,
    (a) => facts('explore/pattern', { ref: a.ref, level: a.level, maxSiblings: a.maxSiblings, maxTokens: a.maxTokens }),
  );
  tool(
    'extract_anchors',
    'A bounded scan inside the ancestor `level` up from ref: headings, labels, test ids, named controls and text with depth and index, to write a container-scoped locator. Step 3.',
    { ref, level, maxDescendants: z.number().int().min(1).max(2000).optional(), maxDepth: z.number().int().min(1).max(50).optional(), maxTokens },
    true,
    (a) => facts('explore/anchors', { ref: a.ref, level: a.level, maxDescendants: a.maxDescendants, maxDepth: a.maxDepth, maxTokens: a.maxTokens }),
  );
  tool(
    'select_role',
    'Act as this role from now on (admin, customer, ...). Each role is its own isolated browser context (cookies, storage), created the first time it is selected.',
    {
      role: z.string().min(1).max(64).describe('Role name'),
      baseURL: z.string().max(2048).optional().describe('Base URL for relative navigations of a new role'),
      locale: z.string().max(35).optional(),
      viewport: z.object({ width: z.number().int().min(100).max(10_000), height: z.number().int().min(100).max(10_000) }).optional(),
    },
    false,
    async (a) => {
      const spec: Record<string, unknown> = {};
      for (const k of ['baseURL', 'locale', 'viewport']) if (a[k] !== undefined) spec[k] = a[k];
      const { created } = await state.selectRole(a.role, spec);
      return textResult(`Role ${a.role} selected${created ? ' (new isolated context)' : ''}.`);
    },
  );
  tool('list_roles', 'The roles of this session, their tabs, and which one is selected', {}, true, async () => {
    if (!state.sessionId) return textResult(`No browser session yet; selected role: ${state.role}.`);
    const s = await state.call<any>('GET', `/v1/sessions/${state.sessionId}`);
    return textResult(
      (s.roles as any[])
        .map((r) => `${r.name === state.role ? '* ' : '  '}${r.name}: ${r.pages.length} tab(s); active ${(r.pages.find((p: any) => p.active) ?? r.pages[0])?.url ?? '-'}`)
        .join('\n'),
    );
  });

  // ── seed 002: inspection ──────────────────────────────────────────────────
  tool(
    'playwright_inspect_dom',
    'Progressive DOM inspection: semantic children of the page or of an element (wrapper divs skipped) with boxes, text and layout. Drill down by ref or selector.',
    { ...selectorOrRef, maxChildren: z.number().int().min(1).max(200).optional(), maxDepth: z.number().int().min(1).max(20).optional(), includeHidden: z.boolean().optional(), maxTokens },
    true,
    (a) => facts('inspect/dom', a),
  );
  tool('playwright_get_test_ids', 'Every test id on the page (all frames, open shadow roots), grouped by attribute, duplicates flagged', { attributes: z.string().max(500).optional(), limit: z.number().int().min(1).max(5000).optional(), maxTokens }, true, (a) =>
    facts('inspect/test-ids', a),
  );
  tool(
    'playwright_query_selector_all',
    'Try a selector (testid:x, CSS, text=..., role=...): every match with box, text, visibility and why hidden',
    { selector: z.string().max(2000), limit: z.number().int().min(1).max(500).optional(), maxTokens },
    true,
    (a) => facts('inspect/query', a),
  );
  const elementTool = (name: string, description: string, sub: string, extra: z.ZodRawShape = {}) =>
    tool(name, description, { ...selectorOrRef, ...extra, maxTokens }, true, (a) => {
      if (!a.ref && !a.selector) throw new AriadneCallError(400, 'invalid_request', 'Give ref or selector.', { field: 'ref' });
      return facts(sub, a);
    });
  elementTool('playwright_element_visibility', 'Why a click might fail: visible, viewport ratio, clipped, covered (and by what), needs scroll', 'inspect/visibility');
  elementTool('playwright_element_position', "The element's box (frame and page coordinates), in viewport or not", 'inspect/position');
  elementTool('playwright_element_interaction_state', 'Enabled, editable, checked, selected, focused, required, ARIA states, value', 'inspect/state');
  elementTool('playwright_get_element_attributes', 'Attributes grouped as all / data / aria', 'inspect/attributes', { filter: z.string().max(500).optional() });
  elementTool('playwright_get_element_text', 'Text of the element', 'inspect/text', { maxChars: z.number().int().min(1).max(100_000).optional() });
  tool('playwright_list_iframes', 'Every iframe, nested too: selector chain, name, src, URL, size, visible', { maxTokens }, true, (a) => facts('inspect/frames', a));
  tool('playwright_get_cookies', "The current role's cookies", { url: z.string().max(8192).optional() }, true, async (a) => textResult(renderFacts(await get('cookies', { url: a.url }))));
  tool('playwright_get_local_storage', "localStorage of the tab's origin", {}, true, async () => textResult(renderFacts(await get('storage', { type: 'local' }))));
  tool('playwright_get_session_storage', "sessionStorage of the tab's origin", {}, true, async () => textResult(renderFacts(await get('storage', { type: 'session' }))));
  tool('playwright_get_performance_timing', 'Navigation and paint timing, resources, JS heap, DOM size', {}, true, async () => textResult(renderFacts(await get('performance'))));

  // ── locators, DOM, flows ──────────────────────────────────────────────────
  tool(
    'get_locators',
    'Verified Playwright locators for a ref, best first: each was resolved on the live page and matches exactly that element',
    { ref },
    true,
    async (a) => {
      const r = await get('locators', { ref: a.ref });
      const lines = [`Locators for ${r.ref} (${r.target?.role ?? r.target?.tag ?? ''}):`];
      for (const l of r.locators ?? []) lines.push(`- ${l.code}  [${l.strategy}; ${(l.why ?? []).join('; ')}; matches ${l.verified?.matches}]`);
      if (!(r.locators ?? []).length) lines.push('(none proven unique)');
      if (r.baseline?.code) lines.push(`Playwright normalize(): ${r.baseline.code} (matches ${r.baseline.matches})`);
      return textResult(lines.join('\n'));
    },
  );
  tool(
    'dom',
    'The DOM, abbreviated, across nested iframes and open shadow roots, with a locator proven unique per interactive element; cut at maxTokens with an explicit marker',
    { maxTokens },
    true,
    async (a) => textResult(renderFacts((await get('dom', { maxTokens: a.maxTokens ?? 4000 })).dom ?? '')),
  );
  tool(
    'run_flow',
    'Run a plain-English flow (Markdown plan: "#Case 1: name" then "- step" bullets; Verify bullets are assertions) in fresh browsers, and report each case. wait=false returns the run id at once (get_run to follow).',
    {
      url: z.string().max(8192).describe('Where the flow starts'),
      plan: z.string().max(100_000).describe('The plan (Markdown)'),
      variables: z.record(z.string(), z.string()).optional().describe('{{NAME}} values'),
      planner: z.enum(['rules', 'anthropic', 'openai']).optional(),
      wait: z.boolean().optional().describe('Wait for the run to finish (default true, up to timeoutSeconds)'),
      timeoutSeconds: z.number().int().min(1).max(900).optional(),
    },
    false,
    async (a) => {
      let run = await state.call('POST', '/v1/runs', { body: { url: a.url, plan: a.plan, variables: a.variables, planner: a.planner } });
      if (a.wait === false) return textResult(renderRun(run));
      const deadline = Date.now() + (a.timeoutSeconds ?? 120) * 1000;
      while (['queued', 'running'].includes(run.status) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 300));
        run = await state.call('GET', `/v1/runs/${run.id}`);
      }
      return textResult(renderRun(run));
    },
  );
  tool('get_run', 'Status and report of a flow run', { id: z.string().max(100) }, true, async (a) => textResult(renderRun(await state.call('GET', `/v1/runs/${encodeURIComponent(a.id)}`))));
  return names;
}
