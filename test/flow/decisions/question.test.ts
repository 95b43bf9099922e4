import { describe, expect, it } from 'vitest';
import { asksAboutThePast, isQuestion } from '../../../src/flow/decisions/question';

describe('isQuestion', () => {
  it('takes a question without its question mark, as visitors type them', () => {
    for (const request of [
      "what's 2+2",
      'how many are left',
      'did you save both notes',
      'Has that gone out',
      'Haven’t you sent it',
    ])
      expect(isQuestion(request), request).toBe(true);
  });

  it('does not take an imperative, or a request that only mentions a question word', () => {
    for (const request of ['do the dishes', 'add milk', 'note what Sam said', 'sort by price, whatever is cheapest'])
      expect(isQuestion(request), request).toBe(false);
  });

  it('takes anything that ends with a question mark', () => {
    expect(isQuestion('  can you add milk? ')).toBe(true);
  });
});

describe('asksAboutThePast', () => {
  it('reads what the session did, in straight or curly apostrophes', () => {
    for (const request of ['did you add my groceries?', 'Didn’t you sort it', 'so, is it done?', 'were they saved'])
      expect(asksAboutThePast(request), request).toBe(true);
  });

  it('is not a question about what should happen next', () => {
    for (const request of ['what is left on the list?', 'can you add milk?', 'which one is the cheapest'])
      expect(asksAboutThePast(request), request).toBe(false);
  });
});
