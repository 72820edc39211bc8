import { describe, expect, it } from 'vitest';
import { factLexicalText, isProfilePredicate, predicateKind } from './fact-lexical-text.js';

describe('fact lexical text and profile slots', () => {
  it.each([
    ['job_title', true],
    ['pet:dog', true],
    ['lives_in', true],
    ['opinion_of:jazz', false],
    ['plan:trip', false],
    ['observation:paint lighthous', false],
  ])('%s is a profile slot: %s', (predicate, expected) => {
    expect(isProfilePredicate(predicate)).toBe(expected);
  });

  it("adds the slot's words to a fact's text, and nothing for a kind it does not know", () => {
    expect(factLexicalText({ text: 'Ana works as a glassblower.', predicate: 'job_title' })).toMatch(/^Ana works as a glassblower\. job occupation profession work career living/);
    expect(factLexicalText({ text: 'Ana painted a lighthouse.', predicate: 'observation:lighthous paint' })).toBe('Ana painted a lighthouse.');
    expect(predicateKind('opinion_of:jazz: live')).toBe('opinion_of');
  });
});
