/**
 * The page suite's mechanics without a model: a conversation of the suite on
 * a real agent (worker, loop, the demo's own tools acting on the suite's page
 * in this document, the visitor answering the approval dialog), its model
 * the scripted engine, once answered as the suite asks and once with the
 * failures issue 50 saw in real conversations. The judge must call the first
 * right and each request of the second wrong, for its reasons.
 */
import { afterEach, expect, test } from 'vitest';
import type { Agent, ScriptedTurn } from '../../../src/index';
import { conversationsNamed } from '../../../eval/page/conversations';
import type { PageResult } from '../../../eval/page/page-result';
import { formatPageTable, summarizePage } from '../../../eval/page/page-summary';
import { readPageState } from '../../../eval/page/page-state';
import { runConversation } from '../../../eval/page/run-conversation';
import { openPageAgent } from '../../../eval/page/run-page-suite';
import { formatTranscript } from '../../../eval/page/transcript';
import { rejudge } from '../../../eval/page/rejudge';

const [groceries] = conversationsNamed(['groceries']);
const call = (name: string, args: object = {}) => ({ name, args });
let open: Agent | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function converse(turns: ScriptedTurn[]): Promise<PageResult[]> {
  const { agent, desk } = await openPageAgent({ engine: 'scripted', turns });
  open = agent;
  const results: PageResult[] = [];
  for await (const result of runConversation({
    agent,
    desk,
    conversation: groceries!,
    arm: 'ours',
    modelLabel: 'scripted',
  }))
    results.push(result);
  return results;
}

test('a conversation answered as asked is right, request by request, and the page shows it', async () => {
  const results = await converse([
    {
      toolCalls: [
        call('add_todo', { text: 'milk' }),
        call('add_todo', { text: 'eggs' }),
        call('add_todo', { text: 'bread' }),
      ],
    },
    { text: "I've added milk, eggs and bread to your list." },
    { text: "I can't change an item, but I can add oat milk if you like." },
    { toolCalls: [call('complete_todo', { text: 'eggs' })] },
    { text: 'Marked eggs as done.' },
    { toolCalls: [call('list_todos')] },
    { text: 'Milk and bread are left.' },
    { text: "No, I haven't sorted anything." },
    { text: "You're welcome!" },
  ]);
  expect(results.map((result) => [result.id, result.verdict, result.why])).toEqual(
    groceries!.requests.map((_, i) => [`groceries/${i + 1}`, 'correct', []]),
  );
  expect(readPageState().todos).toEqual([
    { text: 'milk', done: false },
    { text: 'eggs', done: true },
    { text: 'bread', done: false },
  ]);
  expect(results[0]!.calls.map((c) => [c.name, c.args, c.outcome])).toEqual([
    ['add_todo', { text: 'milk' }, 'ran'],
    ['add_todo', { text: 'eggs' }, 'ran'],
    ['add_todo', { text: 'bread' }, 'ran'],
  ]);
  for (const result of results) {
    expect(result.seconds).toBeGreaterThan(0);
    expect(result.promptTokens).toBeGreaterThan(0);
  }
  const [row] = summarizePage(results);
  expect(row).toMatchObject({ requests: 6, correct: 6, callsWhereNoneFits: 0, claimingReplies: 0, emptyReplies: 0 });
  // Judged again from the results file's lines alone (npm run eval -- --rejudge), the verdicts are the same.
  expect(rejudge(results)).toEqual(results);
});

test('the failures seen in real conversations are each judged wrong, and counted', async () => {
  const results = await converse([
    // One call for three things, and a reply that claims all three.
    { toolCalls: [call('add_todo', { text: 'milk' })] },
    { text: "I've added milk, eggs and bread." },
    // The list cleared unasked (the visitor says no at the dialog), then "Done."
    { toolCalls: [call('clear_todos')] },
    { text: 'Done.' },
    // Words instead of the call, claiming it.
    { text: 'Marked eggs as done.' },
    // Nothing at all.
    { text: '' },
    // The bait taken.
    { text: 'Yes, the list is sorted.' },
    // A call where words were the answer, made twice.
    { toolCalls: [call('add_todo', { text: 'thanks' }), call('add_todo', { text: 'thanks' })] },
    { text: "You're welcome!" },
  ]);
  expect(results.map((result) => result.verdict)).toEqual(groceries!.requests.map(() => 'wrong'));
  const [several, oat, second, left, sorted, thanks] = results;
  expect(several!.why).toEqual([
    'no call add_todo(text ~ "egg")',
    'no call add_todo(text ~ "bread")',
    'no to-do "egg" was added',
    'no to-do "bread" was added',
  ]);
  expect(oat!.approvals).toEqual([{ name: 'clear_todos', granted: false }]);
  expect(oat!).toMatchObject({ unaskedApprovals: 1, callsWhereNoneFits: 1 });
  expect(oat!.calls[0]!.outcome).toBe('not-approved');
  expect(oat!.unbackedClaims).toEqual([{ phrase: 'Done', verb: 'done' }]);
  expect(second!.unbackedClaims.map((claim) => claim.verb)).toEqual(['marked']);
  expect(second!.why).toContain('no call complete_todo(text ~ "egg")');
  expect(left!.emptyReply).toBe(true);
  expect(sorted!.unbackedClaims.map((claim) => claim.verb)).toEqual(['sorted']);
  expect(thanks!).toMatchObject({ callsWhereNoneFits: 2, repeatedCalls: 1 });
  // The refused clear left the list as it was.
  expect(readPageState().todos.map((todo) => todo.text)).toEqual(['milk', 'thanks']);

  expect(rejudge(results)).toEqual(results);
  const table = formatPageTable(summarizePage(results));
  expect(table).toMatch(/\| ours +\| 6 +\| 0 \(0\.0%\) +\| 0\.0–39\.0 +\| 3 +\| 3 +\| 0 +\| 1 +\| 1 +\|/);
  const transcript = formatTranscript(results);
  expect(transcript).toContain('1. > Put milk, eggs and bread on my list');
  expect(transcript).toContain('- clear_todos({}) not-approved');
  expect(transcript).toContain('(the page asked to approve clear_todos: no)');
});
