import { expectCode } from './checks.js';
import { q } from './locators.js';
import type { RunReport, StepRecord } from './types.js';

// The run as a Playwright Test file the user owns: the passing cases, in order, in one
// serial describe (cases share browser state, as they did in the run), one browser
// context per role, every action on the locator Ariadne verified on the live page
// before acting, and every assertion as the `expect` that checks the same thing.
// Secret variables (names like PASSWORD, TOKEN, KEY) are read from the environment.

export interface SpecOptions {
  /** The run's variables, to keep secret values out of the file. */
  variables?: Record<string, string>;
  /** Variables that are secret whatever their names (a suite's secrets). */
  secretNames?: readonly string[];
  /** Roles of the run, in order (default: the roles seen in the steps). */
  roles?: string[];
}

const SECRET = /pass|secret|token|key|otp|pin/i;

function roleVar(role: string): string {
  if (role === 'default') return 'page';
  const camel = role.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));
  const v = `${camel.charAt(0).toLowerCase()}${camel.slice(1)}Page`;
  return /^[A-Za-z_$]/.test(v) ? v : `role${v}`;
}

export function toPlaywrightSpec(report: RunReport, opts: SpecOptions = {}): string {
  const secrets = Object.entries(opts.variables ?? {}).filter(([name, value]) => (SECRET.test(name) || !!opts.secretNames?.includes(name)) && value.length > 0);
  const usedSecrets = new Set<string>();
  /** A string literal, or an expression reading secret parts from the environment. */
  const str = (raw: string): string => {
    // Recorded values carry secrets as {{NAME}} placeholders; older ones may hold the value.
    let parts: (string | { env: string })[] = raw.split(/\{\{([A-Za-z_][\w.-]*)\}\}/).map((p, i) => (i % 2 ? { env: p } : p));
    for (const p of parts) if (typeof p !== 'string') usedSecrets.add(p.env);
    const value = raw;
    const hits = secrets.filter(([, v]) => value.includes(v));
    if (!hits.length && parts.length === 1) return q(value);
    for (const [name, v] of hits) {
      usedSecrets.add(name);
      parts = parts.flatMap((p) => (typeof p === 'string' ? p.split(v).flatMap((s, i) => (i === 0 ? [s] : [{ env: name }, s])) : [p]));
    }
    const pieces = parts.filter((p) => p !== '').map((p) => (typeof p === 'string' ? q(p) : `env(${q(p.env)})`));
    return pieces.length ? pieces.join(' + ') : "''";
  };

  const passing = report.cases.filter((c) => c.status === 'passed' || c.status === 'flaky');
  const roles = opts.roles ?? [...new Set(report.cases.flatMap((c) => c.steps.map((s) => s.role)))];
  if (!roles.length) roles.push('default');
  const vars = new Map(roles.map((r) => [r, roleVar(r)]));
  const out: string[] = [];
  const at = (code: string, role: string) => code.replace(/^page\./, `${vars.get(role) ?? 'page'}.`);

  const stepCode = (s: StepRecord): string[] => {
    const v = vars.get(s.role) ?? 'page';
    const loc = s.locator ? at(s.locator.code, s.role) : null;
    const p = s.params ?? {};
    const need = (what: string) => (loc ? null : [`// step ${s.n} (${s.action}) has no verified locator: ${what}`]);
    switch (s.action) {
      case 'navigate':
        return [`await ${v}.goto(${str(new URL(String(p.url), report.url).toString())});`];
      case 'back': return [`await ${v}.goBack();`];
      case 'forward': return [`await ${v}.goForward();`];
      case 'reload': return [`await ${v}.reload();`];
      case 'click': return need('click') ?? [`await ${loc}.click();`];
      case 'hover': return need('hover') ?? [`await ${loc}.hover();`];
      case 'check': return need('check') ?? [`await ${loc}.check();`];
      case 'uncheck': return need('uncheck') ?? [`await ${loc}.uncheck();`];
      case 'clear': return need('clear') ?? [`await ${loc}.clear();`];
      case 'fill': return need('fill') ?? [`await ${loc}.fill(${str(String(p.value ?? ''))});`];
      case 'type':
        // Key by key, as in the run: split inputs move the focus themselves.
        return loc ? [`await ${loc}.fill('');`, `await ${loc}.pressSequentially(${str(String(p.text ?? ''))});`] : [`await ${v}.keyboard.type(${str(String(p.text ?? ''))});`];
      case 'select': {
        const values = Array.isArray(p.value) ? p.value : [String(p.value ?? '')];
        const arg = p.by === 'label' ? `[${values.map((x) => `{ label: ${str(x)} }`).join(', ')}]` : p.by === 'value' ? `[${values.map((x) => `{ value: ${str(x)} }`).join(', ')}]` : values.length === 1 ? str(values[0]) : `[${values.map(str).join(', ')}]`;
        return need('select') ?? [`await ${loc}.selectOption(${arg});`];
      }
      case 'press':
        return loc ? [`await ${loc}.press(${q(String(p.key))});`] : [`await ${v}.keyboard.press(${q(String(p.key))});`];
      case 'wait_for': {
        const lines: string[] = [];
        if (p.time !== undefined) lines.push(`await ${v}.waitForTimeout(${Number(p.time)});`);
        if (p.text !== undefined) lines.push(`await expect(${v}.getByText(${str(p.text)}).filter({ visible: true }).first()).toBeVisible();`);
        if (p.textGone !== undefined) lines.push(`await expect(${v}.getByText(${str(p.textGone)}).filter({ visible: true })).toHaveCount(0);`);
        return lines;
      }
      case 'wait_for_stable':
        return [`await ${v}.waitForLoadState('networkidle');`];
      case 'handle_dialog':
        return []; // its handler is registered before the action that opened the dialog
      case 'scroll': {
        const d = String(p.direction ?? 'down');
        if (d === 'top' || d === 'bottom') return [`await ${v}.evaluate(() => window.scrollTo(0, ${d === 'top' ? '0' : 'document.body.scrollHeight'}));`];
        const [dx, dy] = ({ up: [0, -600], down: [0, 600], left: [-600, 0], right: [600, 0] } as Record<string, number[]>)[d] ?? [0, 600];
        return [`await ${v}.mouse.wheel(${dx}, ${dy});`];
      }
      // The run's inbox, through the Ariadne API (helper below).
      case 'create_temp_email':
        return [`await inbox.address();`];
      case 'create_temp_email+fill':
        return need('fill the email field') ?? [`await ${loc}.fill(await inbox.address());`];
      case 'enter_code':
        return [`await enterCode(${v}, (await inbox.next({ code: true })).code!.code);`];
      case 'read_email_code':
        return [];
      case 'read_email_link':
        return [`await ${v}.goto((await inbox.next({ link: true })).link!.url);`];
      case 'wait_for_email':
        return [`await inbox.waitFor({ ${p.text ? `subject: ${q(String(p.text))}` : ''} });`];
      case 'http_request':
        return [`await request.fetch(${q(String(p.url))}, { method: ${q(String(p.text ?? 'GET'))} });`];
      case 'assert': {
        const a = s.assertion;
        if (!a) return [];
        if (a.check.type.startsWith('element_') && !a.locator) return [`// assertion "${a.description.replace(/\n/g, ' ')}" had no verified locator`];
        return [expectCode(a.check, a.locator ? at(a.locator.code, s.role) : undefined, v)];
      }
      default:
        return [`// step ${s.n}: ${s.action} is not exported`];
    }
  };

  // The run's inbox address, wherever it was typed or expected, comes from the inbox
  // helper in the spec (a new address per spec run).
  const address = report.cases.flatMap((c) => c.steps).find((st) => st.action.startsWith('create_temp_email'))?.params?.value as string | undefined;
  const usesInbox = report.cases.some((c) => c.steps.some((st) => /^(create_temp_email|enter_code|read_email|wait_for_email)/.test(st.action) || st.assertion?.check.type === 'email_received'));
  const withInbox = (line: string) => (address && line.includes(address) ? line.split(address).join("' + (await inbox.address()) + '") : line);

  const body: string[] = [];
  for (const c of passing) {
    body.push('');
    body.push(`  test(${q(`Case ${c.index}: ${c.name}`)}, async ({ request }) => {`);
    let lastAsked = '';
    const passed = c.steps.filter((s) => s.status === 'passed'); // a planner's recovered miss is not part of the flow
    for (const [i, s] of passed.entries()) {
      if (s.asked !== lastAsked) {
        body.push(`    // ${s.asked.replace(/\n/g, ' ')}${s.healed ? ' (healed in replay)' : ''}`);
        lastAsked = s.asked;
      }
      // The dialog this action opens: Playwright Test handles it with a listener set first.
      const next = passed[i + 1];
      if (next?.action === 'handle_dialog' && next.role === s.role) {
        const answer = next.params?.accept === false ? 'dialog.dismiss()' : `dialog.accept(${next.params?.promptText !== undefined ? str(String(next.params.promptText)) : ''})`;
        body.push(`    ${vars.get(s.role) ?? 'page'}.once('dialog', (dialog) => void ${answer});`);
      }
      // The link of an email was opened: the recorded navigation to it is that step.
      if (s.action === 'navigate' && passed[i - 1]?.action === 'read_email_link') continue;
      for (const line of stepCode(s)) body.push(`    ${withInbox(line)}`);
    }
    body.push('  });');
  }

  out.push(`// Generated by Ariadne from run ${report.runId} (${report.startedAt}, planner ${report.planner}${report.model ? `, model ${report.model}` : ''}).`);
  out.push(`// ${passing.length} of ${report.cases.length} cases passed and are reproduced here, in order, sharing browser state like the run did.`);
  out.push('// Every locator below was proven on the live page (exactly one match, the element acted on) before the action.');
  out.push('// It is yours: run it with `npx playwright test`, edit it, commit it.');
  out.push("import { test, expect, type BrowserContext, type Page } from '@playwright/test';");
  out.push('');
  if (usedSecrets.size) {
    out.push(`// Secret variables of the plan are read from the environment: ${[...usedSecrets].join(', ')}.`);
    out.push('function env(name: string): string {');
    out.push('  const value = process.env[name];');
    out.push("  if (value === undefined) throw new Error(`Set ${name} in the environment to run this spec.`);");
    out.push('  return value;');
    out.push('}');
    out.push('');
  }
  if (usesInbox) out.push(...INBOX_HELPER);
  out.push(`const START_URL = ${q(report.url)};`);
  out.push('');
  out.push(`test.describe.serial(${q(`Ariadne run ${report.runId}`)}, () => {`);
  out.push('  const contexts: BrowserContext[] = [];');
  for (const r of roles) out.push(`  let ${vars.get(r)}: Page; // role "${r}"`);
  out.push('');
  out.push('  test.beforeAll(async ({ browser }) => {');
  for (const r of roles) {
    out.push('    {');
    out.push('      const context = await browser.newContext();');
    out.push('      contexts.push(context);');
    out.push(`      ${vars.get(r)} = await context.newPage();`);
    out.push(`      await ${vars.get(r)}.goto(START_URL);`);
    out.push('    }');
  }
  out.push('  });');
  out.push('');
  out.push('  test.afterAll(async () => {');
  out.push('    for (const context of contexts) await context.close();');
  out.push('  });');
  out.push(...body);
  out.push('});');
  return `${out.join('\n')}\n`;
}

// Emitted into specs whose run used the inbox: reads a fresh Ariadne inbox over its REST
// API (ARIADNE_URL, ARIADNE_TOKEN), and enters a one-time code as the run did (a paste on
// a split input, else a fill).
const INBOX_HELPER = [
  '// The run used an email inbox: this spec reads a fresh one from Ariadne (set ARIADNE_URL, and ARIADNE_TOKEN when keys are on).',
  'type Mail = { subject: string; from: string; code: { code: string } | null; link: { url: string } | null };',
  'const inbox = (() => {',
  "  const base = process.env.ARIADNE_URL ?? 'http://127.0.0.1:3000';",
  "  const headers: Record<string, string> = { 'content-type': 'application/json', ...(process.env.ARIADNE_TOKEN ? { authorization: `Bearer ${process.env.ARIADNE_TOKEN}` } : {}) };",
  '  let box: Promise<{ id: string; address: string }> | null = null;',
  '  let read = 0;',
  '  const open = () => (box ??= fetch(`${base}/v1/inboxes`, { method: \'POST\', headers, body: \'{}\' }).then((r) => r.json()));',
  '  const list = async (after: number, wait: number): Promise<Mail[]> => {',
  '    const { id } = await open();',
  '    const r = await fetch(`${base}/v1/inboxes/${id}/messages?after=${after}&waitSeconds=${wait}`, { headers });',
  '    return (await r.json()).messages;',
  '  };',
  '  return {',
  '    address: async () => (await open()).address,',
  '    /** The next unread email (with a code / a link when asked), waiting up to 30 s. */',
  '    async next(want: { code?: boolean; link?: boolean } = {}): Promise<Mail> {',
  '      const deadline = Date.now() + 30_000;',
  '      for (;;) {',
  '        const mails = await list(read, 5);',
  '        if (mails.length) { read += 1; const m = mails[0]; if ((!want.code || m.code) && (!want.link || m.link)) return m; continue; }',
  "        if (Date.now() > deadline) throw new Error('No email arrived in 30 s.');",
  '      }',
  '    },',
  '    async waitFor(want: { subject?: string; from?: string }): Promise<Mail | undefined> {',
  '      const deadline = Date.now() + 30_000;',
  '      for (;;) {',
  '        const m = (await list(0, 2)).find((x) => (!want.subject || x.subject.toLowerCase().includes(want.subject.toLowerCase())) && (!want.from || x.from.toLowerCase().includes(want.from.toLowerCase())));',
  '        if (m || Date.now() > deadline) return m;',
  '      }',
  '    },',
  '  };',
  '})();',
  '',
  'async function enterCode(page: Page, code: string): Promise<void> {',
  "  const boxes = page.locator('input[maxlength=\"1\"]').filter({ visible: true });",
  '  if ((await boxes.count()) >= 4) {',
  '    await boxes.first().evaluate((el, text) => {',
  '      const data = new DataTransfer();',
  "      data.setData('text/plain', text);",
  "      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));",
  '    }, code);',
  '  } else {',
  "    await page.locator('input[autocomplete=\"one-time-code\"], input[name*=code i], input[id*=code i], input[name*=otp i]').first().fill(code);",
  '  }',
  '}',
  '',
];
