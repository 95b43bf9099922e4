/** What a message to the agent must be, checked by the page before it crosses to the worker, and by the worker. */
import { AgentError } from '../errors';

export function checkMessageText(text: unknown): asserts text is string {
  if (typeof text !== 'string' || !text.trim()) {
    const got = typeof text === 'string' ? 'only white space' : text === null ? 'null' : `a ${typeof text}`;
    throw new AgentError(
      'invalid-options',
      `agent.run(text) and agent.send(text) need a non-empty string; got ${got}. Pass the person's words as a string, e.g. agent.send(input.value).`,
    );
  }
}
