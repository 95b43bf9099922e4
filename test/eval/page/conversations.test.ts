// The page suite's data: enough conversations and requests, each a real tool's call, every table order one the
// demo's sort gives, and the suite's copy of the page holding the demo's products.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { CONVERSATIONS, conversationsNamed } from '../../../eval/page/conversations';
import { PRODUCTS } from '../../../eval/page/page-parts';

const TOOLS = ['add_todo', 'complete_todo', 'list_todos', 'clear_todos', 'add_note', 'sort_table', 'fill_form'];
const requests = CONVERSATIONS.flatMap((conversation) => conversation.requests);

test('at least 8 conversations of at least 5 requests, at least 40 requests, each id once', () => {
  expect(CONVERSATIONS.length).toBeGreaterThanOrEqual(8);
  for (const conversation of CONVERSATIONS) expect(conversation.requests.length).toBeGreaterThanOrEqual(5);
  expect(requests.length).toBeGreaterThanOrEqual(40);
  expect(new Set(CONVERSATIONS.map((conversation) => conversation.id)).size).toBe(CONVERSATIONS.length);
  expect(new Set(requests.map((request) => request.text.toLowerCase())).size).toBe(requests.length);
});

test('the issue’s kinds of request are all there, several times each', () => {
  for (const kind of ['several', 'no-tool', 'follow-up', 'pick-tool', 'values', 'claim-bait', 'destructive'])
    expect(requests.filter((request) => request.kinds.includes(kind as never)).length, kind).toBeGreaterThanOrEqual(2);
  // Several things in one message: requests that need two or three calls.
  expect(
    requests.filter((request) => request.expect.calls !== 'none' && request.expect.calls.length > 1).length,
  ).toBeGreaterThanOrEqual(5);
  expect(requests.filter((request) => request.expect.calls === 'none').length).toBeGreaterThanOrEqual(15);
});

test('every call named is one of the page’s tools; a destructive one is approved, or refused on purpose', () => {
  for (const request of requests) {
    const { calls, allowed = [], approves = [], mayRecall = [] } = request.expect;
    for (const call of [...(calls === 'none' ? [] : calls), ...allowed])
      expect(TOOLS, request.text).toContain(call.name);
    for (const name of [...approves, ...mayRecall]) expect(TOOLS, request.text).toContain(name);
    const clears = calls !== 'none' && calls.some((call) => call.name === 'clear_todos');
    if (clears) {
      const refused = calls.some((call) => call.outcome === 'not-approved');
      expect(approves.includes('clear_todos'), request.text).toBe(!refused);
    }
  }
});

test('every table order the suite expects is one the demo’s sort_table gives the demo’s products', () => {
  const orders = new Set<string>();
  for (const column of ['name', 'price', 'stock'] as const)
    for (const descending of [false, true]) {
      const sorted = [...PRODUCTS].sort(
        (a, b) => (column === 'name' ? a.name.localeCompare(b.name) : a[column] - b[column]) * (descending ? -1 : 1),
      );
      orders.add(sorted.map((product) => product.name).join());
    }
  for (const request of requests)
    for (const table of request.expect.page?.table ?? []) {
      const filtered = table.shown.length === 1;
      if (!filtered) expect(orders, request.text).toContain(table.shown.join());
    }
});

test('the suite’s page holds the demo’s products, in its order', () => {
  const html = readFileSync(new URL('../../../index.html', import.meta.url), 'utf8');
  const body = /<table id="products">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)![1]!;
  const rows = [...body.matchAll(/<tr>\s*<td>(\w+)<\/td>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>\s*<\/tr>/g)].map(
    ([, name, price, stock]) => ({ name, price: Number(price), stock: Number(stock) }),
  );
  expect(rows).toEqual(PRODUCTS);
});

test('conversations by name, in the order named; an unknown one is refused with the names there are', () => {
  expect(conversationsNamed(['typos', 'groceries']).map((conversation) => conversation.id)).toEqual([
    'typos',
    'groceries',
  ]);
  expect(conversationsNamed()).toHaveLength(CONVERSATIONS.length);
  expect(() => conversationsNamed(['nope'])).toThrow(/No conversation "nope".*use one of groceries/);
});
