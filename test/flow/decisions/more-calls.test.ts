// The turn that goes on with another call (more-calls.ts), with an engine that plays a model which, held to a
// call after its first, writes on and on: what it may write, and what the step then says it cost.
import { describe, expect, test } from 'vitest';
import { decisionsOf } from '../../../src/contract/decision-defaults';
import { withMoreCalls } from '../../../src/flow/decisions/more-calls';
import type { StepResponse } from '../../../src/flow/types';
import type { ModelDelta, ModelRequest } from '../../../src/model/engine';
import { declaration, invocation } from '../call-processors/fixture';

const addTodo = declaration('add_todo', {
  description: 'Add an item to the to-do list.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
});

async function afterFirstCall(maxTokens?: number) {
  const { inv } = await invocation([addTodo]);
  // The parts at their defaults, moreCalls among them.
  inv.decisions = decisionsOf({ decisions: true }, 'wllama');
  const asked: (number | undefined)[] = [];
  inv.engine.continueTurn = async function* (request: ModelRequest): AsyncIterable<ModelDelta> {
    asked.push(request.sampling?.maxTokens);
    // The 0.5B after its fill_form call: no new call, only words, until the limit cuts it.
    yield { type: 'text', text: 'and so on '.repeat(10) };
    await new Promise((resolve) => setTimeout(resolve, 30));
    yield { type: 'finish', reason: 'length', usage: { promptTokens: 300, completionTokens: 40 } };
  };
  const request: ModelRequest = {
    messages: [{ role: 'user', content: 'Put milk, eggs and bread on my list' }],
    tools: [addTodo],
    ...(maxTokens && { sampling: { maxTokens } }),
  };
  const response: StepResponse = {
    text: '',
    toolCalls: [{ id: 'c1', name: 'add_todo', args: { text: 'milk' } }],
    callErrors: [],
    raw: '{"name":"add_todo","arguments":{"text":"milk"}}',
    usage: { promptTokens: 300, completionTokens: 20 },
    finishReason: 'tool-calls',
    startedAt: 0,
    ms: 5_000,
  };
  return { asked, turn: await withMoreCalls(inv, 'agent', request, response) };
}

describe('another call in the same turn', () => {
  test('may write about as much as a call of the step took (20 tokens: 46), not the step’s whole limit', async () => {
    const { asked } = await afterFirstCall();
    expect(asked).toEqual([46]);
    // A page's own lower limit stays.
    expect((await afterFirstCall(32)).asked).toEqual([32]);
  });

  test('one that is not kept still counts in the step’s time and tokens', async () => {
    const { turn } = await afterFirstCall();
    expect(turn.toolCalls.map((call) => call.args)).toEqual([{ text: 'milk' }]);
    expect(turn.raw).toBe('{"name":"add_todo","arguments":{"text":"milk"}}');
    expect(turn.usage).toEqual({ promptTokens: 300, completionTokens: 60 });
    expect(turn.ms).toBeGreaterThanOrEqual(5_025);
  });
});
