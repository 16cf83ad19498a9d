import { describe, expect, it } from 'vitest';
import { extractPhrases, roleHintFor } from '../src/targeting/phrases.js';

// Pure logic of the description ladder's words (seed 004): quoted phrases first, names
// kept whole, and which role the words hint at.

describe('extractPhrases', () => {
  it('quoted substrings win over everything else', () => {
    expect(extractPhrases('click the button labeled "Place order" at the bottom right')).toEqual(['Place order']);
    expect(extractPhrases('the “Sign in” link in the footer')).toEqual(['Sign in']);
    expect(extractPhrases("press 'Save draft' then 'Publish'")).toEqual(['Save draft', 'Publish']);
    expect(extractPhrases('‘Next’ button')).toEqual(['Next']);
  });

  it('apostrophes are not quotes', () => {
    const p = extractPhrases("Bob's cart link");
    expect(p[0]).toBe("Bob's cart");
    expect(p).not.toContain('s cart link');
  });

  it('keeps small words inside names: the words before the element kind come first', () => {
    expect(extractPhrases('the Sign in button')[0]).toBe('Sign in');
    expect(extractPhrases('click the Add to cart button')[0]).toBe('Add to cart');
    expect(extractPhrases('Log in button')[0]).toBe('Log in');
    expect(extractPhrases('tap on the Terms of use link')[0]).toBe('Terms of use');
    expect(extractPhrases('the Sign in button in the footer')[0]).toBe('Sign in');
    // The last kind word is the head noun: "Add link" is the name of a button.
    expect(extractPhrases('the Add link button')[0]).toBe('Add link');
    expect(extractPhrases('Buy item 1-3 button')[0]).toBe('Buy item 1-3');
  });

  it('"labeled / named / that says" introduce the name', () => {
    expect(extractPhrases('the link labeled Pricing page')[0]).toBe('Pricing page');
    expect(extractPhrases('the button that says Continue.')[0]).toBe('Continue');
    expect(extractPhrases('the field named Company name')[0]).toBe('Company name');
  });

  it('a name after the element kind', () => {
    expect(extractPhrases('the button Save')[0]).toBe('Save');
    expect(extractPhrases('click the link for Pricing')[0]).toBe('Pricing');
  });

  it('a leading verb is dropped, but kept as a later try in case it is part of the name', () => {
    const p = extractPhrases('Select all checkbox');
    expect(p[0]).toBe('all');
    expect(p).toContain('Select all');
    expect(extractPhrases('Email address')).toEqual(['Email address']);
  });

  it('ends with the description as given, without duplicates (any case)', () => {
    const p = extractPhrases('the Remove button');
    expect(p[p.length - 1]).toBe('the Remove button');
    expect(new Set(p.map((x) => x.toLowerCase())).size).toBe(p.length);
    expect(extractPhrases('Remove')).toEqual(['Remove']);
  });

  it('nothing to match in an empty description', () => {
    expect(extractPhrases('')).toEqual([]);
    expect(extractPhrases('   ')).toEqual([]);
  });
});

describe('roleHintFor', () => {
  it('reads the element kind from the words', () => {
    expect(roleHintFor('the Sign in button')).toBe('button');
    expect(roleHintFor('the Sign in link')).toBe('link');
    expect(roleHintFor('the terms checkbox')).toBe('checkbox');
    expect(roleHintFor('the Email field')).toBe('textbox');
    expect(roleHintFor('the search box')).toBe('searchbox');
    expect(roleHintFor('the Country dropdown')).toBe('combobox');
    expect(roleHintFor('the Billing tab')).toBe('tab');
    expect(roleHintFor('the company logo')).toBe('img');
  });

  it('no kind word, no hint', () => {
    expect(roleHintFor('Email address')).toBeNull();
    expect(roleHintFor('Free shipping on orders over $50')).toBeNull();
  });

  it('quoted text is a name, not a hint', () => {
    expect(roleHintFor('click "Add link"')).toBeNull();
    expect(roleHintFor("the 'Add link' button")).toBe('button');
  });

  it('a leading verb is an instruction, not a hint', () => {
    expect(roleHintFor('Select the France option')).toBe('option');
    expect(roleHintFor('select Germany')).toBeNull();
    expect(roleHintFor('Select the Country dropdown')).toBe('combobox');
  });
});
