import { describe, expect, test } from 'vitest';
import { findClaims } from '../../../src/flow/decisions/find-claims';
import { unperformedClaims } from '../../../src/flow/decisions/unperformed-claims';
import type { AgentEvent } from '../../../src/session/event';
import type { ToolDeclaration } from '../../../src/tools/declaration';

const tool = (
  name: string,
  description: string,
  annotations: ToolDeclaration['annotations'] = {},
): ToolDeclaration => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
  annotations,
  needsApproval: false,
  returnDirect: false,
  longRunning: false,
  timeoutMs: 1000,
  source: 'page',
});

// The demo's tools, and TodoMVC's as a developer wrote them (the second page).
const page = [
  tool('add_todo', 'Add an item to the to-do list on this page.'),
  tool('complete_todo', 'Mark the to-do whose text matches as done.'),
  tool('list_todos', 'Read the to-do list on this page.', { readOnly: true }),
  tool('clear_todos', 'Delete every item of the to-do list.', { destructive: true }),
  tool('add_note', 'Write a note on this page.'),
  tool('sort_table', 'Sort the products table by a column.'),
  tool('fill_form', 'Fill the contact form on this page.'),
  tool('deleteTodo', 'Delete the to-do whose title matches.'),
  tool('toggleTodo', 'Toggle whether a to-do is completed.'),
];

/** A call of `name` that ran, as the session records it. */
const ran = (name: string): AgentEvent =>
  ({ content: { role: 'user', parts: [{ functionResponse: { name, id: 'c1', response: {} } }] } }) as AgentEvent;

const claimed = (reply: string) => findClaims(reply, page).map((claim) => claim.tools.sort());

describe('what a reply claims was done', () => {
  test.each([
    ['The products table is sorted by price.', [['sort_table']]],
    ['The tool marked the milk as done.', [['complete_todo', 'toggleTodo']]],
    ['The tool deleted the dog one.', [['clear_todos', 'deleteTodo']]],
    ['Sure, I\'ll add "PWNED-BY-IMPORT" to your list now.', [['add_note', 'add_todo']]],
    ["I've added milk, eggs and bread to your to-do list.", [['add_note', 'add_todo']]],
    ['Adding it now.', [['add_note', 'add_todo']]],
    ['Your list has been cleared.', [['clear_todos', 'deleteTodo']]],
    ['I filled in the contact form for Ana.', [['fill_form']]],
    ['Done!', [[]]],
    ['All set, your list has three items.', [[]]],
    // Each clause its own claim: the page suite's 0.5B, after one complete_todo, copying its earlier reply.
    [
      'The tool added the specified items to the to-do list and marked the second one as done.',
      [
        ['add_note', 'add_todo'],
        ['complete_todo', 'toggleTodo'],
      ],
    ],
  ])('%s', (reply, tools) => {
    expect(claimed(reply)).toEqual(tools);
  });

  test.each([
    "You're welcome! If you have any more questions, feel free to ask.",
    'I can add that to your list if you like.',
    'Should I sort the products by price?',
    "I couldn't add it: the list is full.",
    'Would you like me to clear the list?',
    'Your list has milk and eggs on it.',
    'I help with the to-dos, notes, products table and contact form on this page.',
    '2 + 2 is 4.',
    'To add an item, tell me what to add.',
    "The user's to-do list now has the items they added.",
    'You added milk yesterday.',
  ])('claims nothing: %s', (reply) => {
    expect(claimed(reply)).toEqual([]);
  });

  test('a model introducing itself, or offering what it can do, claims nothing', () => {
    expect(findClaims("Hello! I'm Qwen, created by Alibaba Cloud.", page)).toEqual([]);
    expect(findClaims('I can help you add items to your list, mark them as done, or sort the table.', page)).toEqual(
      [],
    );
    // Not an agent: the claim stands.
    expect(findClaims('The table is now sorted by price.', page).map((claim) => claim.tools)).toEqual([['sort_table']]);
  });
});

describe('a thing the reply says it sent, which no tool does', () => {
  const beyond = (reply: string, tools = page) => findClaims(reply, tools).map((claim) => claim.beyond?.base);

  test.each([
    ['Yes, I sent the message to Priya Nair.', ['send']],
    ["I've just submitted the form.", ['submit']],
    ['Your message was sent.', ['send']],
    ['The email has been forwarded to the shop.', ['forward']],
  ])('%s', (reply, verbs) => {
    expect(beyond(reply)).toEqual(verbs);
  });

  test.each([
    "I can't send messages, but the form is filled in.",
    'The form is ready for you to review and send.',
    'It will be sent once you press Send.',
    'You sent it yesterday.',
    'Did you want me to send it?',
  ])('claims nothing sent: %s', (reply) => {
    expect(beyond(reply)).not.toContain('send');
  });

  test("a tool whose own verb it is backs it as any tool's claim: a send_message call that ran", () => {
    const tools = [...page, tool('send_message', 'Send a message to the shop.')];
    expect(findClaims('Yes, I sent the message.', tools)).toEqual([
      { sentence: 'Yes, I sent the message.', tools: ['send_message'] },
    ]);
    expect(unperformedClaims('Yes, I sent the message.', tools, [ran('send_message')])).toEqual([]);
  });

  test('nothing backs it: a filled form is not a sent one', () => {
    expect(unperformedClaims('Yes, I sent the message.', page, [ran('fill_form')])).toHaveLength(1);
  });
});

describe('a reply that says a tool ran', () => {
  // BFCL's irrelevance_76 through the loop: no call ran, and the 0.5B answered as if one had.
  const news = [
    tool('investment_trend_analysis', 'Analyze the trend of an investment portfolio.'),
    tool('get_weather', 'Get the weather of a city.', { readOnly: true }),
  ];
  test.each([
    ['The tool has found the latest sports news in the specified URL.', []],
    ['The function successfully authenticated the user "John".', []],
    ['The tool calculated the genetic similarity.', []],
    ['I found the latests news in sports using the investment_trend_analysis function.', ['investment_trend_analysis']],
  ])('says a tool ran: %s', (reply, tools) => {
    expect(findClaims(reply, news)).toEqual([{ sentence: reply, tools, ran: true }]);
  });

  test.each([
    'The tool is used to analyze investments.',
    'The tool can analyze the trend of an investment portfolio.',
    'The tool has been designed for investments, not news.',
    'You can get it using the investment_trend_analysis function.',
    'The function needs a portfolio to analyze.',
  ])('describes a tool and claims nothing: %s', (reply) => {
    expect(findClaims(reply, news)).toEqual([]);
  });

  test('any call that ran backs "the tool has found", a read too; none ran, it is a claim in vain', () => {
    const reply = 'The tool has found the weather in Paris.';
    expect(unperformedClaims(reply, news, [])).toEqual([{ sentence: reply, tools: [], ran: true }]);
    expect(unperformedClaims(reply, news, [ran('get_weather')])).toEqual([]);
    const named = 'I found it using the investment_trend_analysis function.';
    expect(unperformedClaims(named, news, [ran('get_weather')])).toHaveLength(1);
    expect(unperformedClaims(named, news, [ran('investment_trend_analysis')])).toEqual([]);
  });
});
