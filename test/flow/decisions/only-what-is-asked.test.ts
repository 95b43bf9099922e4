// Only what this request asks: in a turn of several calls of one tool, a call that names nothing of the request,
// where another call does, is not run. Held to BFCL's right answers it refuses none as they are asked, and two
// of 2,293 as if each of their values had been said before the request.
import { describe, expect, test } from 'vitest';
import { beyondRequest } from '../../../src/flow/decisions/only-what-is-asked';
import { argumentWords, valueWords } from '../../../src/flow/decisions/value-words';
import { hasSharedData } from '../../shared-data';
import { bfclDecisionCases } from './bfcl-cases';
import { pageTools } from './page-tools';

/** The words of what was said before the request. */
const said = (text: string) => valueWords(text, new Set());
const tool = (name: string) => pageTools.find((candidate) => candidate.name === name)!;
const calls = (name: string, texts: string[]) =>
  texts.map((text) => ({ name, args: { text }, declaration: tool(name) }));

test('the calls that take things of an earlier request are refused, the one this request names runs', () => {
  const beyond = beyondRequest(
    'the laundry is finished',
    calls('complete_todo', ['Finished laundry', 'Finished vacuum', 'Finished fix the bike']),
    said('for the weekend: laundry, vacuum, and fix the bike'),
  );
  expect([...beyond.keys()]).toEqual([1, 2]);
  expect(beyond.get(1)).toEqual([{ text: 'Finished laundry' }]);
});

test('each call naming one of the things asked runs, through the visitor’s typos too', () => {
  expect(
    beyondRequest(
      'Put milk, eggs and bread on my list',
      calls('add_todo', ['Milk', 'eggs', 'bread']),
      said('milk eggs bread'),
    ).size,
  ).toBe(0);
  expect(
    beyondRequest(
      'ad tomatos, onoins and garlic to teh lsit',
      calls('add_todo', ['Tomatoes', 'Onions', 'Garlic']),
      said('tomatoes onions garlic'),
    ).size,
  ).toBe(0);
});

test('a request that names none of its calls’ things ("mark them all done") is let be', () => {
  expect(
    beyondRequest('mark them all done', calls('complete_todo', ['laundry', 'vacuum']), said('laundry vacuum')).size,
  ).toBe(0);
});

test('calls of different tools are each their own tool’s matter', () => {
  const turn = [
    ...calls('add_todo', ['renew passport']),
    { name: 'add_note', args: { title: 'Travel', body: 'The flight is on May 3rd' }, declaration: tool('add_note') },
  ];
  expect(beyondRequest("add 'renew passport' to my list and write a note titled Travel", turn, said('may')).size).toBe(
    0,
  );
});

test('a thing the conversation never held before is let be: the model may have worked it out', () => {
  const beyond = beyondRequest(
    'the laundry and the rest are finished',
    calls('complete_todo', ['laundry', 'vacuum']),
    said('milk'),
  );
  expect(beyond.size).toBe(0);
});

test('unless the turn has more calls than the request lists things: those naming none of them are the model’s own', () => {
  const beyond = beyondRequest(
    'add dry cleaning',
    calls('add_todo', ['Dry cleaning', 'Washing dishes', 'Cleaning the kitchen', 'Mopping the floors']),
    said(''),
  );
  // "Cleaning the kitchen" shares a word with the request, but "Dry cleaning" names more of it.
  expect([...beyond.keys()]).toEqual([1, 2, 3]);
});

describe.skipIf(!hasSharedData('bfcl'))('on BFCL’s right answers', () => {
  // As asked (nothing said before the request), and as if each value had been said before: the hardest the rule
  // can be on a right answer. The two it then refuses hold a value the model works out from the request (a
  // derivative to evaluate; "dir c:\\" for "list file in c drive").
  test.each([
    ['parallel', ['parallel_71']],
    ['parallel_multiple', []],
    ['multiple', []],
    ['simple_python', []],
    ['live_multiple', []],
    ['live_parallel', ['live_parallel_15-11-0']],
    ['live_parallel_multiple', []],
  ] as const)('%s: no right call refused as asked; as if all was said before, only %j', (category, known) => {
    const cases = bfclDecisionCases(category);
    const refused = (earlierOf: (turn: { args: unknown }[]) => Set<string>) =>
      cases
        .filter(({ request, tools, answer }) => {
          const turn = answer.map((call) => ({
            ...call,
            declaration: tools.find((candidate) => candidate.name === call.name)!,
          }));
          return beyondRequest(request, turn, earlierOf(turn)).size > 0;
        })
        .map((testCase) => testCase.id);
    const asAsked = refused(() => new Set());
    const allSaid = refused((turn) => new Set(turn.flatMap((call) => [...argumentWords(call.args)])));
    console.info(
      `${category}: of ${cases.length} cases, a right call refused in ${asAsked.length} as asked, ${allSaid.length} as if all was said before`,
    );
    expect(asAsked).toEqual([]);
    expect(allSaid).toEqual(known);
  });
});
