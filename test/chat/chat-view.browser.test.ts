// The conversation as ChatView draws it from events, in the order a reload can deliver them.
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../src/index';
import { ChatView } from '../../src/chat/chat-view';
import { defaultStrings } from '../../src/chat/strings';

function viewAsking(asked: string[]): ChatView {
  const log = document.createElement('ol');
  document.body.append(log);
  return new ChatView(log, {
    strings: () => defaultStrings,
    tool: (name) => ({ displayName: name, asksFirst: true, destructive: true }),
    ask: (text) => asked.push(text),
    decide: () => {},
    announce: () => {},
    follow: () => {},
  });
}

const event = (fields: Partial<AgentEvent> & Pick<AgentEvent, 'id' | 'type'>): AgentEvent =>
  ({ sessionId: 's', invocationId: 'run-1', author: 'agent', timestamp: 0, ...fields }) as AgentEvent;

const request = event({ id: 'e1', type: 'user', content: { role: 'user', parts: [{ text: 'clear the list' }] } });
const call = event({
  id: 'e2',
  type: 'model',
  content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'clear_todos', args: {} } }] },
});
const interrupted = event({
  id: 'e3',
  type: 'tool',
  content: {
    role: 'tool',
    parts: [{ functionResponse: { id: 'c1', name: 'clear_todos', response: null, error: 'interrupted' } }],
  },
});

test.each([
  ['in the order they were stored', [request, call, interrupted]],
  // After a reload the session's repair answers the cut-off call while the chat still reads the stored events: the
  // answer is drawn first, the visitor's message after it.
  ['when the answer that the reload cut the call off comes before the stored request', [interrupted, request, call]],
])('a call a reload cut off: Ask again asks the request again, %s', (_, events) => {
  const asked: string[] = [];
  const view = viewAsking(asked);
  for (const drawn of events) view.showEvent(drawn);
  const card = view.log.querySelector<HTMLElement>('li.card[data-tool="clear_todos"]')!;
  expect(card.dataset.state).toBe('interrupted');
  const again = [...card.querySelectorAll('button')].find((button) => button.textContent === 'Ask again')!;
  again.click();
  expect(asked).toEqual(['clear the list']);
  view.log.remove();
});
