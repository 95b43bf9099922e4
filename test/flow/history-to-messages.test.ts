import { describe, expect, test } from 'vitest';
import { convertedHistory, historyToMessages } from '../../src/flow/history-to-messages';
import { typed, type AgentEvent, type EventFields, type Part } from '../../src/session/event';

let seq = 0;
const event = (role: 'user' | 'model' | 'tool', parts: Part[], extra: Partial<EventFields> = {}): AgentEvent =>
  typed({
    id: `e${++seq}`,
    sessionId: 's',
    invocationId: 'i',
    seq,
    author: role === 'user' ? 'user' : 'assistant',
    timestamp: seq,
    content: { role, parts },
    ...extra,
  });
const call = (id: string) => ({ functionCall: { id, name: 'look', args: { id } } });
const answer = (id: string) => ({ functionResponse: { id, name: 'look', response: `seen ${id}` } });

const history: AgentEvent[] = [
  event('user', [{ text: 'look at a and b' }]),
  event('model', [call('a'), call('b')]),
  event('tool', [answer('a')]),
  event('tool', [answer('a')], { late: true }),
  event('model', [{ text: 'b is still out' }]),
  event('tool', [answer('b')]),
  event('model', [call('c')]),
  event('model', [{ text: 'done' }]),
];

describe('the history as the messages a model reads', () => {
  test('converted step by step, a run gets what converting the whole history at once gives, calls still unanswered included', () => {
    const whole = (events: AgentEvent[]) => historyToMessages(events);
    const converted = convertedHistory();
    for (let n = 1; n <= history.length; n++) {
      const prefix = history.slice(0, n);
      expect(historyToMessages(prefix, converted)).toEqual(whole(prefix));
    }
  });

  test('a call without an answer gets one saying so, at its turn, until its answer arrives', () => {
    const upToC = history.slice(0, 7);
    const messages = historyToMessages(upToC);
    expect(messages.map((m) => (m.role === 'tool' ? `${m.toolCallId}:${m.content}` : m.role))).toEqual([
      'user',
      'assistant',
      'a:seen a',
      'assistant',
      'b:seen b',
      'assistant',
      'c:Pending: no result yet.',
    ]);
    const twoPending = historyToMessages(history.slice(0, 2));
    expect(twoPending.slice(2).map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual(['a', 'b']);
  });
});
