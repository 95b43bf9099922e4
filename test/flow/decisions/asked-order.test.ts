// The order a request asks for, and a tool's order argument: the two halves of asked-order.ts. On BFCL's right
// answers it is held to refuse none (with the case's last request as the request).
import { describe, expect, test } from 'vitest';
import { orderAsked, orderParameter } from '../../../src/flow/decisions/asked-order';
import { hasSharedData } from '../../shared-data';
import { bfclDecisionCases, CATEGORIES_WITH_CALLS } from './bfcl-cases';

describe('the order a request asks for', () => {
  test.each([
    // The page suite's requests, the 0.5B's wrong sorts among them.
    ['sort the table from cheapest to priciest', 'ascending'],
    ['Could you sort the products by price, cheapest first please?', 'ascending'],
    ['Would you also sort the products by stock, lowest first?', 'ascending'],
    ['now put the most expensive at the top', 'descending'],
    ['Show me the products with the most stock first', 'descending'],
    ['sort the table by name z to a', 'descending'],
    ['names A-Z please', 'ascending'],
    ['price high to low', 'descending'],
    ['sort by date, newest first', 'descending'],
    ['sort them in descending order', 'descending'],
  ] as const)('%s: %s', (request, order) => {
    expect(orderAsked(request)).toBe(order);
  });

  test.each([
    'show everything sorted by stock',
    'add milk first, then bread',
    'put a to-do on my list',
    'sort by price: cheapest first, or the most expensive first?',
  ])('%s: none', (request) => {
    expect(orderAsked(request)).toBeUndefined();
  });
});

describe("a tool's order argument", () => {
  test('a boolean that says descending or ascending by its name, or a choice of "asc" and "desc"', () => {
    expect(orderParameter({ type: 'object', properties: { descending: { type: 'boolean' } } })).toEqual({
      key: 'descending',
      value: { ascending: false, descending: true },
      absent: false,
    });
    expect(orderParameter({ type: 'object', properties: { ascending: { type: 'boolean' } } })).toMatchObject({
      value: { ascending: true, descending: false },
    });
    expect(
      orderParameter({ type: 'object', properties: { order: { type: 'string', enum: ['asc', 'desc'] } } }),
    ).toEqual({ key: 'order', value: { ascending: 'asc', descending: 'desc' } });
    // Left out, a boolean is what its schema says it defaults to.
    expect(
      orderParameter({ type: 'object', properties: { reverse: { type: 'boolean', default: true } } })?.absent,
    ).toBe(true);
  });

  test('none where nothing says which way, or two arguments could', () => {
    expect(orderParameter({ type: 'object', properties: { done: { type: 'boolean' } } })).toBeUndefined();
    expect(
      orderParameter({ type: 'object', properties: { mode: { type: 'string', enum: ['light', 'dark'] } } }),
    ).toBeUndefined();
    expect(
      orderParameter({
        type: 'object',
        properties: { descending: { type: 'boolean' }, sort: { type: 'string', enum: ['asc', 'desc'] } },
      }),
    ).toBeUndefined();
  });
});

describe.skipIf(!hasSharedData('bfcl'))("on BFCL's right answers", () => {
  test.each(CATEGORIES_WITH_CALLS)('%s: no right call sorts the other way than its request asks', (category) => {
    let read = 0;
    const against: string[] = [];
    for (const testCase of bfclDecisionCases(category)) {
      const order = orderAsked(testCase.request);
      for (const call of testCase.answer) {
        const tool = testCase.tools.find((candidate) => candidate.name === call.name);
        const parameter = tool && orderParameter(tool.parameters);
        if (!order || !parameter) continue;
        read++;
        const given = parameter.key in call.args ? call.args[parameter.key] : parameter.absent;
        if (given === parameter.value[order === 'ascending' ? 'descending' : 'ascending']) against.push(testCase.id);
      }
    }
    console.info(
      `${category}: ${read} right calls with an order argument and an order asked; refused: ${against.length}`,
    );
    expect(against).toEqual([]);
  });
});
