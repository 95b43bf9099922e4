/** Stored events of a session, as the decision layer reads its history, for the rules' unit tests. */
import type { AgentEvent, FunctionResponse } from '../../../src/session/event';

/** The model called add_todo with milk: a session whose tools have run. */
export const calledAddTodo: AgentEvent = {
  type: 'model',
  id: 'e1',
  sessionId: 's',
  invocationId: 'i',
  seq: 1,
  author: 'assistant',
  timestamp: 1,
  content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'add_todo', args: { text: 'milk' } } }] },
};

/** The answers to a turn's calls. */
export function answered(...responses: FunctionResponse[]): AgentEvent {
  return {
    type: 'tool',
    id: 'e2',
    sessionId: 's',
    invocationId: 'i',
    seq: 2,
    author: 'tool',
    timestamp: 2,
    content: { role: 'tool', parts: responses.map((functionResponse) => ({ functionResponse })) },
  };
}
