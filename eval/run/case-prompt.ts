/**
 * A case's messages as an agent gets them: system messages as its
 * instructions, the last user message as the run's text. Earlier turns of
 * the same case (five live_irrelevance cases have some) are put before it,
 * each on a line of its own with its role, since a run starts from one message.
 */
import type { BfclCase } from '../bfcl/types';

export function casePrompt(testCase: BfclCase): { instructions: string; text: string } {
  const system = testCase.messages.filter((message) => message.role === 'system');
  const turns = testCase.messages.filter((message) => message.role !== 'system');
  const last = turns.at(-1);
  if (!last || last.role !== 'user') throw new Error(`${testCase.id} does not end with a user message.`);
  const earlier = turns.slice(0, -1).map((message) => `${message.role}: ${message.content}`);
  return {
    instructions: system.map((message) => message.content).join('\n\n'),
    text: earlier.length ? `${earlier.join('\n')}\nuser: ${last.content}` : last.content,
  };
}
