import { describe, expect, it } from 'vitest';
import { isAssertionStep, parsePlan, splitSentence } from '../src/plan.js';
import { interpret, parseTarget } from '../src/planners/rules.js';
import { matchOnTree, type AriaNode } from '@ariadne/page';

// Pure logic: the plan parser and the rules planner's interpretation and matching.

describe('parsePlan', () => {
  it('parses cases, bullets, roles, variables and mandatory assertions', () => {
    const plan = parsePlan([
      '# Shop smoke tests',
      'Some prose about the plan.',
      '',
      '#Case 1: Log in',
      '- Go to /app/login.html',
      '- Type {{USER}} into "Username"',
      '- Type {{PASSWORD}} into "Password"',
      '- Click "Log in"',
      '- Verify "Welcome, {{USER}}" is visible',
      '#Scenario 2: Publish (as admin)',
      '- Type "Sale" into "Announcement"',
      '  continued on the next line',
      '- as customer: Check that "Sale" is visible',
      '#Test: unnamed',
      '* Check the "I accept the terms" checkbox',
      '1. Confirm the URL contains /checkout',
    ].join('\n'), { variables: { USER: 'alice', PASSWORD: 'secret' } });
    expect(plan.cases.map((c) => [c.index, c.name, c.role, c.line])).toEqual([
      [1, 'Log in', 'default', 4],
      [2, 'Publish', 'admin', 10],
      [3, 'unnamed', 'default', 14],
    ]);
    const s = plan.cases[0].steps;
    expect(s[1]).toMatchObject({ index: 2, line: 6, text: 'Type {{USER}} into "Username"', resolved: 'Type alice into "Username"', mandatory: false });
    expect(s[4]).toMatchObject({ mandatory: true, resolved: 'Verify "Welcome, alice" is visible' });
    expect(plan.cases[1].steps[0].text).toBe('Type "Sale" into "Announcement" continued on the next line');
    expect(plan.cases[1].steps[1]).toMatchObject({ role: 'customer', text: 'Check that "Sale" is visible', mandatory: true });
    expect(plan.cases[2].steps.map((x) => x.mandatory)).toEqual([false, true]);
    expect(plan.roles).toEqual(['default', 'admin', 'customer']);
    expect(plan.variables.sort()).toEqual(['PASSWORD', 'USER']);
  });

  it('takes a single sentence as a case', () => {
    const plan = parsePlan('log in as alice with secret, add the Blue Mug to the cart, then confirm "Cart (1)" is visible');
    expect(plan.cases).toHaveLength(1);
    expect(plan.cases[0].steps.map((s) => [s.resolved, s.mandatory])).toEqual([
      ['log in as alice with secret', false],
      ['add the Blue Mug to the cart', false],
      ['confirm "Cart (1)" is visible', true],
    ]);
    expect(splitSentence('type "a, b" into "X"; click "Go"')).toEqual(['type "a, b" into "X"', 'click "Go"']);
  });

  it('names the line of every parse error', () => {
    const err = (src: string, vars?: Record<string, string>) => {
      try {
        parsePlan(src, { variables: vars });
      } catch (e) {
        return e as { code: string; status: number; message: string; details: Record<string, unknown> };
      }
      throw new Error('no error');
    };
    expect(err('')).toMatchObject({ code: 'invalid_request', status: 400, details: { line: 1, field: 'plan' } });
    expect(err('#Case 1: a\n- click "x"\n#Case 2: empty\n\n#Case 3: c\n- click "y"')).toMatchObject({ details: { line: 3 } });
    expect(err('- click "x"\n#Case 1: a\n- click "y"')).toMatchObject({ details: { line: 1 } });
    const v = err('#Case 1: a\n- click "x"\n- type {{NOPE}} into "y"');
    expect(v.details).toMatchObject({ line: 3, variable: 'NOPE' });
    expect(v.message).toContain('line 3');
    expect(err('#Case 1: a\n- as admin:\n')).toMatchObject({ details: { line: 2 } });
    expect(err('#Case 1: a\n- click "x"\n## Notes\n')).toMatchObject({ details: { line: 3 } });
  });

  it('tells the checkbox verb from a Check assertion', () => {
    expect(isAssertionStep('Check the "I accept the terms" checkbox')).toBe(false);
    expect(isAssertionStep('Check "Order confirmed" is visible')).toBe(true);
    expect(isAssertionStep('Check that the cart is empty')).toBe(true);
    expect(isAssertionStep('Ensure the URL contains /cart')).toBe(true);
    expect(isAssertionStep('Click "Verify"')).toBe(false);
  });
});

describe('rules planner: interpret', () => {
  it.each([
    ['Go to /app/login.html', { kind: 'navigate', url: '/app/login.html' }],
    ['Open https://example.com/x', { kind: 'navigate', url: 'https://example.com/x' }],
    ['Open the cart', { kind: 'click', target: { phrase: 'cart', role: null } }],
    ['Click "Log in"', { kind: 'click', target: { phrase: 'Log in', role: null, quoted: true } }],
    ['Click the Log in button', { kind: 'click', target: { phrase: 'Log in', role: 'button' } }],
    ['Click "Add to cart" in the "Blue Mug" card', { kind: 'click', target: { phrase: 'Add to cart', role: null, scope: 'Blue Mug', quoted: true } }],
    ['Type alice into "Username"', { kind: 'fill', value: 'alice', target: { phrase: 'Username', role: 'textbox', quoted: true } }],
    ['Enter 482913 into the one-time code', { kind: 'fill', value: '482913', target: { phrase: 'one-time code', role: 'textbox' } }],
    ['Fill "Password" with secret', { kind: 'fill', value: 'secret', target: { phrase: 'Password', role: 'textbox', quoted: true } }],
    ['Select "Express ($5.00)" in "Shipping"', { kind: 'select', value: 'Express ($5.00)', target: { phrase: 'Shipping', role: 'combobox', quoted: true } }],
    ['Check the "I accept the terms" checkbox', { kind: 'check', target: { phrase: 'I accept the terms', role: 'checkbox', quoted: true } }],
    ['Press Enter', { kind: 'press', key: 'Enter' }],
    ['Wait for "Order confirmed"', { kind: 'wait_text', text: 'Order confirmed' }],
    ['Wait for the page to settle', { kind: 'wait_stable' }],
    ['Wait 2 seconds', { kind: 'wait_time', ms: 2000 }],
    // Quoted text is verified exactly ("Walk the dog" does not pass on "Walk the dog later").
    ['Verify "Welcome, alice" is visible', { kind: 'assert', check: { type: 'text_visible', text: 'Welcome, alice', match: 'exact' } }],
    ['Verify the URL contains /cart.html', { kind: 'assert', check: { type: 'url', op: 'contains', value: '/cart.html' } }],
    ['Assert the title is "Shop · Cart"', { kind: 'assert', check: { type: 'title', op: 'is', value: 'Shop · Cart' } }],
    ['Confirm "Invalid" is not visible', { kind: 'assert', check: { type: 'text_hidden', text: 'Invalid', match: 'exact' } }],
    ['Ensure the "I accept the terms" checkbox is checked', { kind: 'assert', check: { type: 'element_state', state: 'checked', target: { phrase: 'I accept the terms', role: 'checkbox', quoted: true } } }],
    ['add the Blue Mug to the cart', { kind: 'click', target: { phrase: 'Add to cart', role: 'button', scope: 'Blue Mug' } }],
    ['Log in as alice with secret', { kind: 'login', user: 'alice', password: 'secret' }],
  ])('%s', (text, want) => {
    expect(interpret(text)).toEqual(want);
  });

  it('says when it cannot interpret a step', () => {
    expect(interpret('Make the checkout feel fast').kind).toBe('unknown');
    expect(interpret('Verify the vibes').kind).toBe('unknown');
  });

  it('keeps "in" inside names', () => {
    expect(parseTarget('Log in')).toEqual({ phrase: 'Log in', role: null });
    expect(parseTarget('the "Log in" button')).toEqual({ phrase: 'Log in', role: 'button', quoted: true });
  });
});

describe('target matching on the snapshot (the page layer\'s resolver, used by the rules planner)', () => {
  const card = (name: string, ref: number) => ({ role: 'article', children: [{ role: 'heading', name, ref: `e${ref}`, level: 2 }, { role: 'button', name: 'Add to cart', ref: `e${ref + 1}` }] });
  const tree = [{ role: 'main', children: [{ role: 'link', name: 'Log in', ref: 'e1' }, { role: 'button', name: 'Log in', ref: 'e2' }, card('Blue Mug', 10), card('Thread Cap', 20), { role: 'textbox', name: 'Username', ref: 'e30' }] }] as AriaNode[];

  it('matches by role and name, scoped by container, and reports ambiguity', () => {
    expect(matchOnTree(tree, { phrase: 'Log in', role: 'button' }, 'click')).toMatchObject({ kind: 'hit', ref: 'e2' });
    expect(matchOnTree(tree, { phrase: 'Add to cart', role: null, scope: 'Thread Cap' }, 'click')).toMatchObject({ kind: 'hit', ref: 'e21' });
    const amb = matchOnTree(tree, { phrase: 'Add to cart', role: 'button' }, 'click');
    expect(amb.kind).toBe('ambiguous');
    expect(amb.kind === 'ambiguous' && amb.candidates.map((c) => c.ref)).toEqual(['e11', 'e21']);
    expect(matchOnTree(tree, { phrase: 'username', role: 'textbox' }, 'fill')).toMatchObject({ kind: 'hit', ref: 'e30' });
    expect(matchOnTree(tree, { phrase: 'Checkout', role: null }, 'click').kind).toBe('none');
  });
});
