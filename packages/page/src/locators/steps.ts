import type { FrameLocator, Locator, Page } from 'playwright-core';

// A locator as data: a list of steps that renders to the Playwright code an agent
// pastes into a spec, and builds the very same Locator to prove it on the live page.

export type LocatorStep =
  | { m: 'frameLocator'; selector: string }
  | { m: 'getByRole'; role: string; name?: string; exact?: boolean }
  | { m: 'getByTestId'; value: string }
  | { m: 'locator'; selector: string }
  | { m: 'getByLabel' | 'getByPlaceholder' | 'getByAltText' | 'getByTitle' | 'getByText'; text: string; exact?: boolean }
  | { m: 'filter'; hasText?: string; /** hasText as a RegExp source (the whole text of the container). */ hasTextRegex?: string; has?: LocatorStep[] }
  | { m: 'nth'; index: number };

/** A JS string literal in Playwright's style (single quotes). */
export function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

function renderStep(s: LocatorStep): string {
  switch (s.m) {
    case 'frameLocator':
    case 'locator':
      return `${s.m}(${quote(s.selector)})`;
    case 'getByRole': {
      const opts: string[] = [];
      if (s.name !== undefined) opts.push(`name: ${quote(s.name)}`);
      if (s.exact) opts.push('exact: true');
      return `getByRole(${quote(s.role)}${opts.length ? `, { ${opts.join(', ')} }` : ''})`;
    }
    case 'getByTestId':
      return `getByTestId(${quote(s.value)})`;
    case 'filter': {
      // `has` anchors on an exact heading / text inside the container: a near-duplicate
      // ("Desk Lamp Pro" beside "Desk Lamp") does not match it, a hasText substring would.
      const parts: string[] = [];
      if (s.has) parts.push(`has: ${renderSteps(s.has)}`);
      if (s.hasText !== undefined) parts.push(`hasText: ${quote(s.hasText)}`);
      if (s.hasTextRegex !== undefined) parts.push(`hasText: /${s.hasTextRegex.replace(/\//g, '\\/')}/`);
      return `filter({ ${parts.join(', ')} })`;
    }
    case 'nth':
      return `nth(${s.index})`;
    default:
      return `${s.m}(${quote(s.text)}${s.exact ? ', { exact: true }' : ''})`;
  }
}

export function renderSteps(steps: LocatorStep[], root = 'page'): string {
  return [root, ...steps.map(renderStep)].join('.');
}

type Scope = Page | FrameLocator | Locator;

export function buildLocator(page: Page, steps: LocatorStep[]): Locator {
  let cur: Scope = page;
  for (const s of steps) {
    switch (s.m) {
      case 'frameLocator':
        cur = (cur as Page | FrameLocator).frameLocator(s.selector);
        break;
      case 'locator':
        cur = cur.locator(s.selector);
        break;
      case 'getByRole':
        cur = cur.getByRole(s.role as Parameters<Page['getByRole']>[0], { ...(s.name !== undefined ? { name: s.name } : {}), ...(s.exact ? { exact: true } : {}) });
        break;
      case 'getByTestId':
        cur = cur.getByTestId(s.value);
        break;
      case 'filter':
        // The inner locator is built from the page (relative to the outer element), as the rendered code does.
        cur = (cur as Locator).filter({ ...(s.hasText !== undefined ? { hasText: s.hasText } : {}), ...(s.hasTextRegex !== undefined ? { hasText: new RegExp(s.hasTextRegex) } : {}), ...(s.has ? { has: buildLocator(page, s.has) } : {}) });
        break;
      case 'nth':
        cur = (cur as Locator).nth(s.index);
        break;
      default:
        cur = cur[s.m](s.text, s.exact ? { exact: true } : undefined);
    }
  }
  if (!('evaluateAll' in cur)) throw new Error('a locator must end in an element step');
  return cur as Locator;
}
