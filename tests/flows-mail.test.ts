import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { startMailApp, type MailApp } from './helpers/mail-app.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startScriptedModel } from './fixtures/app/scripted-model.mjs';
import { specRunner } from './helpers/playwright-test.js';

// Flows that sign up (seed 001): a real app sends real email over SMTP to the service's
// own inbox; plain-English plans read the code, enter it into a split input, open a magic
// link, and check HTTP answers — with the rules planner and with a scripted model.

let svc: TestService;
let app: MailApp;

beforeAll(async () => {
  svc = await startTestService({ SMTP_PORT: '0', INBOX_DOMAIN: 'inbox.acme.test' });
  app = await startMailApp(svc.service.smtpPort!);
});
afterAll(async () => {
  await app?.close();
  await svc?.stop();
});

async function run(body: Record<string, unknown>): Promise<any> {
  const res = await svc.api.post('/v1/runs', { options: { trace: false }, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  for (;;) {
    const r = await svc.api.get(`/v1/runs/${res.body.id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((x) => setTimeout(x, 250));
  }
}

const steps = (run: any, c = 0) => run.report.cases[c].steps.map((s: any) => [s.action, s.status, s.error?.code].filter(Boolean));

const SIGNUP = [
  '#Case 1: Sign up with a code',
  '- Go to /signup',
  '- Sign up with a new email address',
  '- Type "hunter22" into "Password"',
  '- Click "Create account"',
  '- Enter the verification code from the email',
  '- Click "Verify"',
  '- Verify "Welcome to Acme, {{EMAIL}}" is visible',
  '',
  '#Case 2: Sign in by magic link',
  '- Go to /magic',
  '- Type {{EMAIL}} into "Email"',
  '- Click "Email me a sign-in link"',
  '- Wait for an email with subject "sign-in link"',
  '- Open the confirmation link in the email',
  '- Verify "Signed in as {{EMAIL}}" is visible',
  '- Verify an email arrived from "no-reply@acme.test"',
  '- Verify GET /api/health answers 200 and contains "ok"',
].join('\n');

describe('rules planner', () => {
  it('signs up with a code from the email (pasted into a split input) and signs in by magic link', async () => {
    const r = await run({ url: `${app.url}/signup`, plan: SIGNUP });
    expect(r.status, JSON.stringify(r.report.cases.map((c: any) => c.steps.map((s: any) => [s.asked, s.action, s.status, s.error?.message])))).toBe('passed');
    const [c1, c2] = r.report.cases;
    const created = c1.steps.find((s: any) => s.action === 'create_temp_email+fill');
    const address = created.params.value as string;
    expect(address).toMatch(/@inbox\.acme\.test$/);
    // The app sent both mails to the run's one address.
    expect(app.sent.filter((m) => m.to === address).map((m) => m.subject)).toEqual(['Your Acme verification code', 'Your Acme sign-in link']);
    const code = c1.steps.find((s: any) => s.action === 'enter_code');
    expect(code.params).toMatchObject({ key: 'paste' });
    expect(code.params.value).toMatch(/^\d{6}$/);
    expect(c1.assertions[0]).toMatchObject({ passed: true, check: { type: 'text_visible', text: `Welcome to Acme, ${address}` } });
    expect(c2.steps.map((s: any) => s.action)).toEqual(['navigate', 'fill', 'click', 'wait_for_email', 'read_email_link', 'navigate', 'assert', 'assert', 'assert']);
    expect(c2.steps[4].params.url).toMatch(/\/magic-login\?token=/);
    expect(c2.assertions.map((a: any) => [a.check.type, a.passed])).toEqual([['text_visible', true], ['email_received', true], ['http', true]]);
    // The exported spec reproduces the run, its own fresh inbox included: Playwright Test
    // runs it green against the app (the code read from Ariadne's inbox API, pasted into the
    // split input; the magic link opened; the HTTP check with the request fixture).
    const spec = await svc.api.get(`/v1/runs/${r.id}/spec`);
    expect(spec.status).toBe(200);
    expect(spec.body).toContain('request.fetch(');
    expect(spec.body).not.toContain(address);
    const runner = specRunner();
    try {
      const file = path.join(runner.dir, 'signup.spec.ts');
      writeFileSync(file, spec.body);
      const out = await runner.run(file, { ARIADNE_URL: svc.url });
      expect(out.code, out.output).toBe(0);
      expect(out.output).toMatch(/2 passed/);
    } finally {
      runner.remove();
    }
  });

  it('fails, naming the email it read, when the email has no code', async () => {
    const r = await run({
      url: `${app.url}/signup?variant=nocode`,
      plan: '#Case 1: Sign up\n- Sign up with a new email address\n- Type "hunter22" into "Password"\n- Click "Create account"\n- Enter the verification code from the email\n- Verify "Welcome to Acme" is visible',
    });
    expect(r.status).toBe('failed');
    const failed = r.report.cases[0].steps.find((s: any) => s.status === 'failed');
    expect(failed.action).toBe('enter_code');
    expect(failed.error.code).toBe('code_not_found');
    expect(failed.error.message).toContain('"Welcome to Acme" from no-reply@acme.test');
  });

  it('types the code box by box when the app ignores a paste, and checks the boxes hold it', async () => {
    const r = await run({
      url: `${app.url}/signup?variant=nopaste`,
      plan: '#Case 1: Sign up\n- Use a temporary email\n- Type "hunter22" into "Password"\n- Click "Create account"\n- Enter the 6-digit code from the email\n- Click "Verify"\n- Verify "Welcome to Acme, {{EMAIL}}" is visible',
    });
    expect(r.status, JSON.stringify(r.report.cases[0].steps.map((s: any) => [s.action, s.status, s.error?.message]))).toBe('passed');
    expect(r.report.cases[0].steps.find((s: any) => s.action === 'enter_code').params.key).toBe('keys');
  });

  it('fails an HTTP check that does not hold, with the status it got', async () => {
    const r = await run({ url: `${app.url}/signup`, plan: '#Case 1: Health\n- Verify GET /api/health answers 503' });
    expect(r.status).toBe('failed');
    expect(r.report.cases[0].assertions[0]).toMatchObject({ passed: false, check: { type: 'http', method: 'GET', status: 503 } });
    expect(r.report.cases[0].assertions[0].actual).toMatch(/^200/);
  });

  it('sends HTTP checks through the egress policy: the service\'s own port is refused', async () => {
    const r = await run({ url: `${app.url}/signup`, plan: `#Case 1: Own metrics\n- Verify GET ${svc.url}/healthz answers 200` });
    expect(r.status).toBe('failed');
    expect(r.report.cases[0].assertions[0]).toMatchObject({ passed: false, error: { code: 'egress_denied' } });
  });
});

describe('model planner (scripted, over the OpenAI wire protocol)', () => {
  it('signs up with create_temp_email, wait_for_verification_code and a split input', async () => {
    const model = await startScriptedModel({
      apiKey: 'sk-mail',
      script: {
        'Case 1: Sign up': [
          { tool: 'create_temp_email', args: { step: 1 } },
          { tool: 'snapshot', args: {} },
          { tool: 'type', args: { ref: { $ref: ['textbox', 'Email'] }, text: '{{EMAIL}}', step: 1 } },
          { tool: 'type', args: { ref: { $ref: ['textbox', 'Password'] }, text: 'hunter22', step: 1 } },
          { tool: 'click', args: { ref: { $ref: ['button', 'Create account'] }, step: 1 } },
          { tool: 'wait_for_verification_code', args: { step: 2 } },
          { tool: 'snapshot', args: {} },
          // The code from the previous tool result, into the first box of the split input.
          { tool: 'snapshot', args: {} },
          { tool: 'type', args: { ref: { $ref: ['textbox', 'Digit 1'] }, text: { $result: 'code' }, keyByKey: true, step: 2 } },
          { tool: 'snapshot', args: {} },
          { tool: 'click', args: { ref: { $ref: ['button', 'Verify'] }, step: 2 } },
          { tool: 'wait_for_stable', args: { step: 3 } },
          { tool: 'assert', args: { step: 3, type: 'text_visible', text: 'Welcome to Acme, {{EMAIL}}' } },
          { tool: 'assert', args: { step: 4, type: 'email_received', value: 'no-reply@acme.test', text: 'verification code' } },
          { tool: 'complete_case', args: { passed: true, summary: 'signed up' } },
        ],
      },
    });
    try {
      const r = await run({
        url: `${app.url}/signup`,
        plan: '#Case 1: Sign up\n- Sign up with a new email address and a password\n- Enter the code from the email\n- Verify the welcome page shows the address\n- Verify an email arrived from no-reply@acme.test',
        planner: 'openai',
        model: 'scripted-1',
        apiKey: 'sk-mail',
        baseUrl: `${model.url}/v1`,
      });
      expect(model.stats.invalid).toEqual([]);
      expect(r.status, JSON.stringify(r.report.cases[0].steps.map((s: any) => [s.action, s.status, s.error?.message]))).toBe('passed');
      expect(steps(r)).toEqual([
        ['create_temp_email', 'passed'],
        ['fill', 'passed'],
        ['fill', 'passed'],
        ['click', 'passed'],
        ['read_email_code', 'passed'],
        ['enter_code', 'passed'],
        ['click', 'passed'],
        ['wait_for_stable', 'passed'],
        ['assert', 'passed'],
        ['assert', 'passed'],
      ]);
      const address = r.report.cases[0].steps[0].result?.address ?? r.report.cases[0].steps[0].params.value;
      expect(r.report.cases[0].assertions[0].check.text).toBe(`Welcome to Acme, ${address}`);
    } finally {
      await model.close();
    }
  });
});
