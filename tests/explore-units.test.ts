import { describe, expect, it } from 'vitest';
import { ariaPath, descendantRefs, dropTail, fitToBudget, normalizeSelector, pathRefsToResolve, quote, renderSteps, tokensOf, type AriaNode } from '@ariadne/page';

// Pure logic of the exploration layer: budgets, locator code rendering, the ref path
// through the snapshot tree, selector shorthands. (Browser behaviour is tested end to
// end in the other explore*/inspect*/dom*/locators* files.)

describe('budget', () => {
  it('cuts step by step until it fits, and says so', () => {
    const value = { items: Array.from({ length: 100 }, (_, i) => `item number ${i}`), omitted: 0 };
    const fitted = fitToBudget(value, 100, tokensOf, [
      (v) => {
        if (v.items.length <= 1) return false;
        v.omitted += dropTail(v.items, 0.25);
        return true;
      },
    ]);
    expect(fitted.truncated).toBe(true);
    expect(fitted.tokens).toBeLessThanOrEqual(100);
    expect(fitted.value.items.length + fitted.value.omitted).toBe(100);
    expect(fitted.value.items[0]).toBe('item number 0');
  });

  it('leaves a body that fits alone; keeps what must stay', () => {
    expect(fitToBudget({ a: 1 }, 100, tokensOf, [() => true]).truncated).toBe(false);
    const list = [{ k: 1 }, { k: 2, keep: true }, { k: 3 }, { k: 4 }];
    dropTail(list, 1, (x) => !!x.keep);
    expect(list).toEqual([{ k: 2, keep: true }]);
  });
});

describe('locator code', () => {
  it('renders Playwright code that parses back to the same strings', () => {
    const code = renderSteps([
      { m: 'frameLocator', selector: 'iframe[name="pay"]' },
      { m: 'getByTestId', value: 'product-card' },
      { m: 'filter', hasText: "Don't \\ panic" },
      { m: 'getByRole', role: 'button', name: 'Add to Cart', exact: true },
    ]);
    expect(code).toBe(
      "page.frameLocator('iframe[name=\"pay\"]').getByTestId('product-card').filter({ hasText: 'Don\\'t \\\\ panic' }).getByRole('button', { name: 'Add to Cart', exact: true })",
    );
    // The code is valid JavaScript whose string arguments round-trip.
    const calls: unknown[][] = [];
    const rec: any = new Proxy({}, { get: (_t, m) => (...args: unknown[]) => (calls.push([m, ...args]), rec) });
    new Function('page', `return ${code};`)(rec);
    expect(calls).toEqual([
      ['frameLocator', 'iframe[name="pay"]'],
      ['getByTestId', 'product-card'],
      ['filter', { hasText: "Don't \\ panic" }],
      ['getByRole', 'button', { name: 'Add to Cart', exact: true }],
    ]);
    expect(quote('a\nb')).toBe("'a\\nb'");
  });
});

describe('aria path', () => {
  const tree: AriaNode[] = [
    { role: 'generic', ref: 'e1', children: [
      { role: 'main', ref: 'e2', children: [
        { role: 'generic', ref: 'e3', children: [{ role: 'heading', name: 'A', ref: 'e4' }, 'text', { role: 'button', name: 'Go', ref: 'e5' }] },
        { role: 'generic', ref: 'e6', children: [{ role: 'button', name: 'Go', ref: 'e7' }] },
      ] },
    ] },
  ];
  it('finds the ancestors of a ref, outermost first, and the refs below a node', () => {
    expect(ariaPath(tree, 'e5')!.map((n) => n.ref)).toEqual(['e1', 'e2', 'e3']);
    expect(ariaPath(tree, 'e99')).toBeNull();
    expect(descendantRefs((tree[0] as any).children[0])).toEqual(['e3', 'e4', 'e5', 'e6', 'e7']);
  });
  it('resolves every path ref when few, else the outermost two and the nearest ones', () => {
    const long = Array.from({ length: 15 }, (_, i) => ({ role: 'generic', ref: `e${i}` }));
    expect(pathRefsToResolve(long)).toEqual(['e0', 'e1', 'e7', 'e8', 'e9', 'e10', 'e11', 'e12', 'e13', 'e14']);
  });
});

describe('selector shorthands', () => {
  it('expands testid:, data-test:, data-cy: and passes other selectors through', () => {
    expect(normalizeSelector('testid:submit-button')).toBe('[data-testid="submit-button"]');
    expect(normalizeSelector('data-test:login "form"')).toBe('[data-test="login \\"form\\""]');
    expect(normalizeSelector('data-cy:user')).toBe('[data-cy="user"]');
    expect(normalizeSelector(' text=Login ')).toBe('text=Login');
    expect(() => normalizeSelector('  ')).toThrow(/empty/);
  });
});
