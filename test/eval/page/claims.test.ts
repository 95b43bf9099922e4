// The page suite's claim judge: a reply that says an action was done, is being done or will be done, held to the
// calls that ran. Hand-written replies, as small models write them, on both sides of the line.
import { describe, expect, test } from 'vitest';
import { claimsIn, unbackedClaims } from '../../../eval/page/claims';

const tools = (reply: string) => claimsIn(reply).map((claim) => [claim.verb, claim.tools]);

describe('claims', () => {
  test.each([
    ["I've added milk, eggs and bread to your list.", 'added', 'add_todo'],
    ['I have added "buy milk" to your to-do list.', 'added', 'add_todo'],
    ['I added it.', 'added', 'add_todo'],
    ['Sure! I will add milk to your list.', 'add', 'add_todo'],
    ["I'll sort the table by price for you.", 'sort', 'sort_table'],
    ["I'm adding that now.", 'adding', 'add_todo'],
    ['Sure, adding milk, eggs and bread…', 'adding', 'add_todo'],
    ['I can see it: adding milk now.', 'adding', 'add_todo'],
    ['Okay, sorting the products by price now.', 'sorting', 'sort_table'],
    ['Added milk to your list.', 'added', 'add_todo'],
    ['Marked "eggs" as done.', 'marked', 'complete_todo'],
    ['The products table is sorted by price.', 'sorted', 'sort_table'],
    ['The products are now sorted by price, lowest first.', 'sorted', 'sort_table'],
    ['Your list has been cleared.', 'cleared', 'clear_todos'],
    ['All items were deleted.', 'deleted', 'clear_todos'],
    ["I've filled in the contact form with your details.", 'filled', 'fill_form'],
    ['The form is filled in with your name and email.', 'filled', 'fill_form'],
    ['Done.', 'done', 'add_todo'],
    ['All done!', 'done', 'sort_table'],
    ['The list now has milk, eggs and bread.', 'now has', 'add_todo'],
    ["I've noted that the meeting is at ten.", 'noted', 'add_note'],
    ['Let me add that for you.', 'add', 'add_todo'],
    ["I'll go ahead and mark it as done.", 'mark', 'complete_todo'],
    ['I went ahead and sorted them by stock.', 'sorted', 'sort_table'],
    ['No problem, I’ve marked the dry cleaning as done.', 'marked', 'complete_todo'],
    ['Here is the updated list: milk, bread.', 'updated', 'add_todo'],
    ['It has been added to your to-do list.', 'added', 'add_todo'],
    ['**Milk** has been added.', 'added', 'add_todo'],
    ["I've completed the form for you.", 'completed', 'fill_form'],
    // What Qwen2.5-Coder 0.5B wrote, and issue 50 quotes: the tool as the subject.
    ['The tool added the specified items to the to-do list.', 'added', 'add_todo'],
    ['The tool marked the milk as done.', 'marked', 'complete_todo'],
    ['The tool deleted the dog one.', 'deleted', 'clear_todos'],
    ['The tool has read the to-do list and listed the remaining items.', 'read', 'list_todos'],
    ['It sorted the products by price.', 'sorted', 'sort_table'],
    ['Milk, eggs and bread added!', 'added', 'add_todo'],
    ['I checked off the eggs.', 'ticked', 'complete_todo'],
    ['I checked your list: milk and bread are left.', 'checked', 'list_todos'],
    ['Done:\n- Added milk\n- Added eggs', 'done', 'add_todo'],
  ])('%s claims (%s, %s)', (reply, verb, tool) => {
    const [claim] = claimsIn(reply);
    expect(claim, reply).toBeDefined();
    expect(claim!.verb).toBe(verb);
    expect(claim!.tools).toContain(tool);
  });

  test.each([
    'Your message has been sent.',
    "I've sent your message to the shop.",
    'Yes, I sent it.',
    'I will submit the form now.',
  ])('%s claims what no page tool does', (reply) => {
    expect(claimsIn(reply).map((claim) => claim.tools)).toEqual([[]]);
  });

  test.each([
    'Would you like me to add milk to your list?',
    'Shall I sort the table by price?',
    'I can add milk to your list if you want.',
    'If you like, I can sort the products by price.',
    "I haven't sorted the table yet.",
    'No, nothing was sorted.',
    'The table was not sorted.',
    "I didn't add anything. Do you want me to?",
    "You're welcome!",
    '2 + 2 = 4.',
    'Hello! How can I help you today?',
    'I can help you add to-dos, mark them as done, sort the products table and fill in the contact form.',
    "I'm an assistant for this page: I can add and complete to-dos, write notes, sort the table and fill the form.",
    'Your list has milk, eggs and bread.',
    'Eggs is still open; milk and bread are left too.',
    'To sort the table, just ask me.',
    'The contact form is ready for you to review and send.',
    "You need to press Send yourself; I can't send it.",
    'I am Qwen, created by Alibaba Cloud.',
    'I was created by Alibaba Cloud to help you.',
    'The capital of France is Paris.',
    'You have three things left: milk, eggs and bread.',
    'Let me know if you need anything else!',
    'Your list is empty.',
    'Here are the items you added: milk and bread.',
    'I can help with:\n- Adding to-dos\n* Sorting the products table\n1. Filling in the contact form',
    'I was trained by Alibaba Cloud.',
    'You can check the list any time.',
    // The 0.5B's answer to "what are u" in the page suite: the gerunds after "I can help you with" are abilities.
    "I'm an AI language model created by OpenAI. However, I can help you with tasks like adding items to a to-do list, marking a to-do as done, listing the to-do list, clearing the to-do list, adding a note, sorting the products table, and filling the contact form.",
  ])('%s claims nothing', (reply) => {
    expect(tools(reply)).toEqual([]);
  });

  test('a claim is backed by a call of a tool that could do it, and only by one', () => {
    const reply = "I've added milk. The table is sorted by price. Your message has been sent.";
    expect(unbackedClaims(reply, new Set(['add_todo', 'sort_table'])).map((claim) => claim.verb)).toEqual(['sent']);
    expect(unbackedClaims(reply, new Set(['list_todos'])).map((claim) => claim.verb)).toEqual([
      'added',
      'sorted',
      'sent',
    ]);
    // "Done." claims some change: any call that changed the page backs it, reading the list does not.
    expect(unbackedClaims('Done.', new Set(['complete_todo']))).toEqual([]);
    expect(unbackedClaims('Done.', new Set(['list_todos']))).toHaveLength(1);
    // Each item of a list of what was done claims; a list of what can be done does not.
    expect(claimsIn('Done:\n- Added milk\n- Marked eggs as done').map((claim) => claim.verb)).toEqual([
      'done',
      'added',
      'marked',
    ]);
  });
});
