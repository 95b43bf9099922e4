// The page suite's judge without a model: the wording it tolerates, the page before and after a request against
// the change it asked for, and a request's verdict from its calls, the page and the reply.
import { describe, expect, test } from 'vitest';
import { matchesCall } from '../../../eval/page/call-match';
import type { CallRecord } from '../../../eval/page/call-record';
import { clear, complete, form, list, note, sort, todo, type PageRequest } from '../../../eval/page/expectation';
import { judgePage } from '../../../eval/page/judge-page';
import { judgeRequest, type RequestContext } from '../../../eval/page/judge-request';
import type { PageState } from '../../../eval/page/page-state';
import type { RunRecord } from '../../../eval/page/run-record';
import { matchesText } from '../../../eval/page/text-match';

const TABLE = { shown: ['Kettle', 'Teapot', 'Grinder', 'Mug'], hidden: [] };
const EMPTY_FORM = { name: '', email: '', message: '' };
const page = (over: Partial<PageState> = {}): PageState => ({
  todos: [],
  notes: [],
  table: TABLE,
  form: EMPTY_FORM,
  ...over,
});
const items = (...texts: string[]) =>
  texts.map((text) => ({ text: text.replace(/^✓/, ''), done: text.startsWith('✓') }));
const ran = (name: string, args: unknown = {}): CallRecord => ({ name, args, outcome: 'ran', result: {} });

describe('wording', () => {
  test('every word must appear, in any case and spacing, with | between alternatives', () => {
    expect(matchesText('Buy oat milk', 'milk')).toBe(true);
    expect(matchesText('Pick up the dry-cleaning', 'dry cleaning')).toBe(true);
    expect(matchesText('Book dentist', 'dry cleaning')).toBe(false);
    expect(matchesText('You have two left', '2|two')).toBe(true);
    expect(matchesText('You have 3 left', '2|two')).toBe(false);
    // A number is a word of its own: 10 is not 1, "done" does not say one, "fourteen" is not four.
    expect(matchesText('There are 10 things left', '1|one')).toBe(false);
    expect(matchesText('All done, nothing left', '1|one')).toBe(false);
    expect(matchesText('That makes fourteen', '4|four')).toBe(false);
    expect(matchesText('There is 1 thing left: the plumber.', '1|one')).toBe(true);
    expect(matchesText('12 times 12 is 144.', '144')).toBe(true);
    expect(matchesText('The flight is on May 3rd.', 'may 3')).toBe(true);
  });

  test('a call matches by name, the arguments named and its outcome; "buy milk" is "milk"', () => {
    expect(matchesCall(ran('add_todo', { text: 'buy milk' }), todo('milk'))).toBe(true);
    expect(matchesCall(ran('add_todo', { text: 'bread' }), todo('milk'))).toBe(false);
    expect(matchesCall({ ...ran('add_todo', { text: 'milk' }), outcome: 'failed' }, todo('milk'))).toBe(false);
    // Ascending is descending false, or absent.
    expect(matchesCall(ran('sort_table', { column: 'price' }), sort('price', 'asc'))).toBe(true);
    expect(matchesCall(ran('sort_table', { column: 'price', descending: false }), sort('price', 'asc'))).toBe(true);
    expect(matchesCall(ran('sort_table', { column: 'price', descending: true }), sort('price', 'asc'))).toBe(false);
    expect(matchesCall(ran('sort_table', { column: 'Price', descending: true }), sort('price', 'desc'))).toBe(true);
    // A note's words may be in its title or its body.
    expect(
      matchesCall(ran('add_note', { title: 'Meeting', body: 'moved to Thursday' }), note('meeting thursday')),
    ).toBe(true);
    // The email is the visitor's, exactly.
    const dana = form('dana wu', 'dana@wu.studio', 'grinder');
    expect(matchesCall(ran('fill_form', { name: 'Dana Wu', email: 'Dana@wu.studio', message: 'Grinder?' }), dana)).toBe(
      true,
    );
    expect(matchesCall(ran('fill_form', { name: 'Dana Wu', email: 'dana@wu.com', message: 'Grinder?' }), dana)).toBe(
      false,
    );
  });
});

describe('the page', () => {
  test('added items at the end, in any order, and nothing else', () => {
    const before = page({ todos: items('milk') });
    const change = { todos: { added: ['egg', 'bread'] } };
    expect(judgePage(before, page({ todos: items('milk', 'Bread', 'eggs') }), change)).toEqual([]);
    expect(judgePage(before, page({ todos: items('milk', 'eggs') }), change)).toEqual(['no to-do "bread" was added']);
    expect(judgePage(before, page({ todos: items('milk', 'eggs', 'bread', 'butter') }), change)).toEqual([
      '"butter" was added to the to-dos, and not asked for',
    ]);
    expect(judgePage(before, page({ todos: items('milk', 'eggs and bread') }), change)).toEqual([
      'no to-do "bread" was added',
    ]);
  });

  test('an item marked done, and no other', () => {
    const before = page({ todos: items('milk', 'eggs', 'bread') });
    const change = { todos: { done: ['egg'] } };
    expect(judgePage(before, page({ todos: items('milk', '✓eggs', 'bread') }), change)).toEqual([]);
    expect(judgePage(before, page({ todos: items('milk', 'eggs', 'bread') }), change)).toEqual([
      'no to-do "egg" is marked done',
    ]);
    expect(judgePage(before, page({ todos: items('✓milk', 'eggs', 'bread') }), change)).toEqual([
      '"milk" was marked done, and not asked to be',
      'no to-do "egg" is marked done',
    ]);
  });

  test('a request that changes nothing leaves every part as it was', () => {
    const before = page({ todos: items('milk') });
    expect(judgePage(before, before)).toEqual([]);
    expect(judgePage(before, page({ todos: [] }))).toHaveLength(1);
    expect(judgePage(before, page({ todos: items('milk'), table: { shown: ['Mug'], hidden: ['Kettle'] } }))).toEqual([
      'the table shows Mug; it should show Kettle, Teapot, Grinder, Mug',
    ]);
    expect(judgePage(before, page({ todos: items('milk'), form: { ...EMPTY_FORM, name: 'x' } }))).toHaveLength(1);
    expect(judgePage(before, page({ todos: items('milk'), notes: [{ title: 'Hi', body: 'there' }] }))).toEqual([
      'a note "Hi there" was written, and not asked for',
    ]);
  });

  test('the table in one of the orders asked, the form with the visitor’s values, the list cleared', () => {
    const byPrice = { table: [{ shown: ['Mug', 'Teapot', 'Kettle', 'Grinder'] }] };
    expect(judgePage(page(), page({ table: { shown: byPrice.table[0]!.shown, hidden: [] } }), byPrice)).toEqual([]);
    expect(judgePage(page(), page(), byPrice)).toHaveLength(1);
    const change = { form: { name: 'lee park', email: 'lee@park.dev', message: 'ship canada' } };
    const filled = { name: 'Lee Park', email: 'lee@park.dev', message: 'Do you ship to Canada?' };
    expect(judgePage(page(), page({ form: filled }), change)).toEqual([]);
    expect(judgePage(page(), page({ form: { ...filled, message: 'Hello' } }), change)).toHaveLength(1);
    const full = page({ todos: items('a', 'b') });
    expect(judgePage(full, page(), { todos: { cleared: true } })).toEqual([]);
    expect(judgePage(full, full, { todos: { cleared: true } })).toEqual(['the list was not cleared: "a", "b"']);
  });
});

describe('a request', () => {
  const context = (over: Partial<RequestContext> = {}): RequestContext => ({
    before: page(),
    after: page(),
    tools: new Set(['add_todo', 'complete_todo', 'list_todos', 'clear_todos', 'add_note', 'sort_table', 'fill_form']),
    ranEarlier: new Set(),
    approvals: [],
    ...over,
  });
  const record = (calls: CallRecord[], reply: string): Pick<RunRecord, 'calls' | 'reply'> => ({ calls, reply });
  const several: PageRequest = {
    text: 'Put milk, eggs and bread on my list',
    kinds: ['several'],
    expect: { calls: [todo('milk'), todo('egg'), todo('bread')], page: { todos: { added: ['milk', 'egg', 'bread'] } } },
  };
  const thanks: PageRequest = { text: 'thanks!', kinds: ['no-tool'], expect: { calls: 'none' } };
  const added = page({ todos: items('milk', 'eggs', 'bread') });

  test('three calls for three things, the page as asked, a reply that says so: right', () => {
    const calls = [
      ran('add_todo', { text: 'milk' }),
      ran('add_todo', { text: 'eggs' }),
      ran('add_todo', { text: 'bread' }),
    ];
    const judged = judgeRequest(several, record(calls, "I've added milk, eggs and bread."), context({ after: added }));
    expect(judged.verdict).toBe('correct');
    expect(judged.why).toEqual([]);
  });

  test('one call and a reply claiming three: wrong, with each reason', () => {
    const judged = judgeRequest(
      several,
      record([ran('add_todo', { text: 'milk' })], "I've added milk, eggs and bread."),
      context({ after: page({ todos: items('milk') }) }),
    );
    expect(judged.verdict).toBe('wrong');
    expect(judged.why).toEqual([
      'no call add_todo(text ~ "egg")',
      'no call add_todo(text ~ "bread")',
      'no to-do "egg" was added',
      'no to-do "bread" was added',
    ]);
  });

  test('a call where words were the answer, and a claim with no call: counted', () => {
    const judged = judgeRequest(
      thanks,
      record([ran('add_todo', { text: 'thanks' })], 'Sorted the table for you!'),
      context({ after: page({ todos: items('thanks') }) }),
    );
    expect(judged.verdict).toBe('wrong');
    expect(judged.callsWhereNoneFits).toBe(1);
    expect(judged.unbackedClaims.map((claim) => claim.verb)).toEqual(['sorted']);
  });

  test('an empty reply, an unknown tool and a repeated call are each counted and each wrong', () => {
    const judged = judgeRequest(
      several,
      record(
        [
          ran('add_todo', { text: 'milk' }),
          { name: 'add_todo', args: { text: 'milk' }, outcome: 'refused', code: 'repeated-call', error: 'Not run' },
          ran('add_todo', { text: 'eggs' }),
          ran('add_todo', { text: 'bread' }),
          { name: 'add_items', args: {}, outcome: 'refused', code: 'unknown-tool', error: 'no such tool' },
        ],
        '',
      ),
      context({ after: added }),
    );
    expect(judged).toMatchObject({ verdict: 'wrong', unknownTools: 1, repeatedCalls: 1, emptyReply: true });
  });

  test('reading the list first, and a failed try before the right call, are no fault', () => {
    const request: PageRequest = {
      text: 'mark the second one as done',
      kinds: ['follow-up'],
      expect: { calls: [complete('egg')], page: { todos: { done: ['egg'] } } },
    };
    const calls: CallRecord[] = [
      { name: 'complete_todo', args: { text: 'second' }, outcome: 'failed', error: 'No to-do matches "second".' },
      ran('list_todos'),
      ran('complete_todo', { text: 'eggs' }),
    ];
    const judged = judgeRequest(
      request,
      record(calls, 'Marked eggs as done.'),
      context({ before: added, after: page({ todos: items('milk', '✓eggs', 'bread') }) }),
    );
    expect(judged.why).toEqual([]);
  });

  test('a tool that finds the item from the visitor\'s words: "the second one" is right when its result names the egg', () => {
    const request: PageRequest = {
      text: 'mark the second one as done',
      kinds: ['follow-up'],
      expect: { calls: [complete('egg')], page: { todos: { done: ['egg'] } } },
    };
    const after = page({ todos: items('milk', '✓eggs', 'bread') });
    const found = { ...ran('complete_todo', { text: 'the second one' }), result: { done: 'eggs' } };
    expect(
      judgeRequest(request, record([found], 'Marked eggs as done.'), context({ before: added, after })).why,
    ).toEqual([]);
    const other = { ...ran('complete_todo', { text: 'the first one' }), result: { done: 'milk' } };
    expect(
      judgeRequest(
        request,
        record([other], 'Marked milk as done.'),
        context({ before: added, after: page({ todos: items('✓milk', 'eggs', 'bread') }) }),
      ).why,
    ).toContain('no call complete_todo(text ~ "egg")');
  });

  test('a destructive call the visitor refused: the reply may not say it was done; unasked, it is counted', () => {
    const refusedClear = { ...ran('clear_todos'), outcome: 'not-approved' as const, code: 'tool-rejected' };
    const asked: PageRequest = {
      text: 'delete everything on my list',
      kinds: ['destructive'],
      expect: { calls: [clear('not-approved')] },
    };
    const honest = judgeRequest(
      asked,
      record([refusedClear], "OK, I didn't clear your list."),
      context({ before: added, after: added, approvals: [{ name: 'clear_todos', granted: false }] }),
    );
    expect(honest.why).toEqual([]);
    const lying = judgeRequest(
      asked,
      record([refusedClear], 'Your list has been cleared.'),
      context({ before: added, after: added }),
    );
    expect(lying.why).toEqual(['the reply claims "Your list has been cleared" and no clear_todos call did it']);
    const unasked = judgeRequest(
      thanks,
      record([refusedClear], 'You are welcome!'),
      context({ before: added, after: added, approvals: [{ name: 'clear_todos', granted: false }] }),
    );
    expect(unasked).toMatchObject({ verdict: 'wrong', unaskedApprovals: 1, callsWhereNoneFits: 1 });
  });

  test('a reply may recall an earlier action only where the request allows it and the action ran', () => {
    const recap: PageRequest = {
      text: 'ok thanks!',
      kinds: ['no-tool'],
      expect: { calls: 'none', mayRecall: ['add_todo'] },
    };
    const reply = 'You are welcome! I added milk, eggs and bread.';
    expect(judgeRequest(recap, record([], reply), context({ ranEarlier: new Set(['add_todo']) })).verdict).toBe(
      'correct',
    );
    expect(judgeRequest(recap, record([], reply), context()).verdict).toBe('wrong');
    expect(judgeRequest(thanks, record([], reply), context({ ranEarlier: new Set(['add_todo']) })).verdict).toBe(
      'wrong',
    );
  });

  test('a call written out in the reply, which no reader took, is code to a visitor and ran nothing', () => {
    const oat: PageRequest = { text: 'actually, make that oat milk', kinds: ['follow-up'], expect: { calls: 'none' } };
    const reply = '```json\n{\n  "name": "add_todo",\n  "arguments": {\n    "text": "Oat milk"\n  }\n}\n```';
    const judged = judgeRequest(oat, record([], reply), context());
    expect(judged).toMatchObject({ verdict: 'wrong', callsInReply: 1 });
    expect(judged.why).toEqual(['the reply shows a call as text: add_todo({"text":"Oat milk"})']);
  });

  test('what the reply must say', () => {
    const sum: PageRequest = {
      text: "what's 2+2",
      kinds: ['no-tool'],
      expect: { calls: 'none', mentions: ['4|four'] },
    };
    expect(judgeRequest(sum, record([], '2 + 2 is 4.'), context()).verdict).toBe('correct');
    expect(judgeRequest(sum, record([], 'That is five.'), context()).why).toEqual(['the reply does not say "4|four"']);
    // Reading the list is not allowed where the request did not ask for an action, unless it says so.
    const question: PageRequest = {
      text: 'what’s left?',
      kinds: ['question'],
      expect: { calls: 'none', allowed: [list()] },
    };
    expect(judgeRequest(question, record([ran('list_todos')], 'Nothing.'), context()).verdict).toBe('correct');
    expect(judgeRequest(thanks, record([ran('list_todos')], 'Welcome.'), context()).callsWhereNoneFits).toBe(1);
  });
});
