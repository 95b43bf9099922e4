import { describe, expect, it } from 'vitest';
import { quotedOptionalValues } from '../../../src/flow/decisions/quoted-values';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { pageTools } from './page-tools';

const sortTable: ToolDeclaration = {
  ...pageTools[0]!,
  name: 'sort_table',
  description: 'Sort the products table by a column.',
  parameters: {
    type: 'object',
    properties: { column: { type: 'string' }, filter: { type: 'string' }, note: { type: 'string' } },
    required: ['column'],
  },
};

const call = (args: Record<string, unknown>, id = 'c1') => ({ id, name: 'sort_table', args });
const failed = (error: string, id = 'c1') => ({ id, name: 'sort_table', response: null, error, code: 'tool-failed' });

describe('quotedOptionalValues', () => {
  it('finds an optional value the error quotes, in straight, curly or back quotes, whatever its case', () => {
    for (const error of [
      'No product holds "Z to A", so nothing was sorted.',
      "No product holds 'z to a'.",
      'No product holds “Z to A”.',
      'No product holds `Z TO A`.',
    ])
      expect(
        quotedOptionalValues([call({ column: 'name', filter: 'Z to A' })], [failed(error)], [sortTable]),
        error,
      ).toEqual(new Map([['sort_table', new Set(['filter'])]]));
  });

  it('leaves a required value, a value the error names without quotes, and a call that did not fail', () => {
    const quotedColumn = quotedOptionalValues([call({ column: 'name' })], [failed('No column "name".')], [sortTable]);
    expect(quotedColumn.size).toBe(0);
    const unquoted = quotedOptionalValues(
      [call({ column: 'name', filter: 'stock' })],
      [failed('The stock count is out of date.')],
      [sortTable],
    );
    expect(unquoted.size).toBe(0);
    const refused = quotedOptionalValues(
      [call({ column: 'name', filter: 'tea' })],
      [{ ...failed('Not run: filter is "tea", which the user did not ask for.'), code: 'ungrounded-value' }],
      [sortTable],
    );
    expect(refused.size).toBe(0);
  });

  it('gathers the keys of each failed call of a round', () => {
    const quoted = quotedOptionalValues(
      [call({ column: 'name', filter: 'stock' }, 'a'), call({ column: 'price', note: 'cheap' }, 'b')],
      [failed('No product holds "stock".', 'a'), failed('Unknown note "cheap".', 'b')],
      [sortTable],
    );
    expect(quoted).toEqual(new Map([['sort_table', new Set(['filter', 'note'])]]));
  });
});
