import { describe, expect, test } from 'vitest';
import { askedActions } from '../../../src/flow/decisions/asked-actions';
import { outsideTools } from '../../../src/flow/decisions/outside-tools';
import { isSlipOf, mendTypos } from '../../../src/flow/decisions/typos';
import { pageTools } from './page-tools';

describe('misspelt tool words, spelled as the tools spell them', () => {
  test.each([
    // The page suite's misspelt requests.
    ['ad tomatos, onoins and garlic to teh lsit', 'add tomatos, onoins and garlic to teh list'],
    ['sortt prodcts by prise, high to low', 'sort prodcts by prise, high to low'],
    ['pls claer my list', 'pls clear my list'],
    ['wirte a note: dentist friday', 'write a note: dentist friday'],
  ])('%s', (request, mended) => {
    expect(mendTypos(request, pageTools)).toBe(mended);
  });

  test('what they ask is read from the mended words: a call, not words', () => {
    const typed = 'ad tomatos, onoins and garlic to teh lsit';
    expect(askedActions(typed, pageTools)).toEqual([]);
    expect(outsideTools(typed, pageTools, [])).toBe(true);
    expect(askedActions(mendTypos(typed, pageTools), pageTools).sort()).toEqual(['add_note', 'add_todo']);
    expect(askedActions(mendTypos('sortt prodcts by prise', pageTools), pageTools)).toEqual(['sort_table']);
  });

  test('only words a decision turns on are mended toward, and never inside a name, a path or an address', () => {
    // "products" is a word of sort_table's description only; "sortt" is enough to ask for the sort.
    expect(mendTypos('sortt prodcts', pageTools)).toBe('sort prodcts');
    expect(mendTypos('run d:/pc_lsit/test.py and lsit_todos for claer@x.org', pageTools)).toBe(
      'run d:/pc_lsit/test.py and lsit_todos for claer@x.org',
    );
    // Capitalised, it is mended; in capitals it is a name ("CAA records").
    expect(mendTypos('Lsit them, then CLAER', pageTools)).toBe('list them, then CLAER');
  });

  test('words that are words of their own stay: "and" is not "add", "from" not "form", "clean" not "clear"', () => {
    for (const request of [
      'milk and bread',
      'copy it from the notes',
      'clean the kitchen tonight',
      'what did the doctor say',
      'the weather is nice today',
      'any idea whats for dinner',
    ])
      expect(mendTypos(request, pageTools)).toBe(request);
  });

  test('the slips it counts, and the ones it does not', () => {
    expect(isSlipOf('lsit', 'list')).toBe(true);
    expect(isSlipOf('ad', 'add')).toBe(true);
    expect(isSlipOf('sortt', 'sort')).toBe(true);
    expect(isSlipOf('prodct', 'product')).toBe(true);
    expect(isSlipOf('procuct', 'product')).toBe(true);
    // Short words: only a swap or a doubled letter; one wrong letter is another word.
    expect(isSlipOf('and', 'add')).toBe(false);
    expect(isSlipOf('clean', 'clear')).toBe(false);
    expect(isSlipOf('nte', 'note')).toBe(false);
    expect(isSlipOf('list', 'list')).toBe(false);
    expect(isSlipOf('lists', 'li')).toBe(false);
  });
});
