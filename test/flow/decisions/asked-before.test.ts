import { describe, expect, test } from 'vitest';
import { askedBefore } from '../../../src/flow/decisions/asked-before';
import type { AgentEvent } from '../../../src/session/event';
import { pageTools } from './page-tools';

let seq = 0;
/** One earlier request of the session, and the tools its run ran (a name with '!' failed). */
function earlier(text: string, ran: string[]): AgentEvent[] {
  const invocationId = `inv${++seq}`;
  const base = { sessionId: 's', invocationId, timestamp: seq };
  return [
    { ...base, type: 'user', id: `u${seq}`, seq, author: 'user', content: { role: 'user', parts: [{ text }] } },
    {
      ...base,
      type: 'tool',
      id: `t${seq}`,
      seq,
      author: 'tool',
      content: {
        role: 'tool',
        parts: ran.map((name, index) => ({
          functionResponse: {
            id: `c${seq}-${index}`,
            name: name.replace('!', ''),
            response: name.endsWith('!') ? null : { ok: true },
            ...(name.endsWith('!') && { error: 'failed', code: 'tool-failed' }),
          },
        })),
      },
    },
  ];
}

const ADDS = ['add_todo', 'add_note'];

describe('the tool earlier requests of the same verb ran', () => {
  test('"add call the landlord" after "add walk the dog…" added to-dos: the to-do', () => {
    const history = earlier('add walk the dog and water the plants', ['add_todo', 'add_todo']);
    expect(askedBefore(ADDS, pageTools, history)).toEqual(['add_todo']);
  });

  test('no earlier request of that verb, earlier ones that disagree, or a call that failed: every tool stays', () => {
    expect(askedBefore(ADDS, pageTools, [])).toEqual(ADDS);
    expect(askedBefore(ADDS, pageTools, earlier('sort the products by price', ['sort_table']))).toEqual(ADDS);
    const both = [...earlier('add milk', ['add_todo']), ...earlier('add a line about Sam', ['add_note'])];
    expect(askedBefore(ADDS, pageTools, both)).toEqual(ADDS);
    expect(askedBefore(ADDS, pageTools, earlier('add milk', ['add_todo!']))).toEqual(ADDS);
  });

  test('one tool asked is left as it is', () => {
    expect(askedBefore(['add_todo'], pageTools, earlier('add milk', ['add_note']))).toEqual(['add_todo']);
  });
});
