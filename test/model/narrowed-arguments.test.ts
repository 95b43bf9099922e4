// ModelRequest.narrowedArguments: a step's calls held to narrower arguments by the grammar of both engines, the
// prompt unchanged (its cache kept). The decision layer's retry of several items packed in one call uses it.
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/model/engine';
import { toolFormatNamed } from '../../src/model/formats/registry';
import { toWllamaRequest } from '../../src/model/engines/wllama/wllama-request';
import { toWebLLMRequest } from '../../src/model/engines/webllm/webllm-request';
import { chatTemplate } from '../../src/model/engines/wllama/wllama-template';
import { markupPrompt } from '../../src/model/engines/wllama/wllama-prompt';
import { oneItemArguments } from '../../src/flow/decisions/one-item-each';
import type { ToolDeclaration } from '../../src/tools/declaration';

const addTodo = {
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', minLength: 1 } },
    required: ['text'],
    additionalProperties: false,
  },
} as unknown as ToolDeclaration;
const request: ModelRequest = {
  messages: [{ role: 'user', content: 'Put milk, eggs and bread on my list' }],
  tools: [addTodo],
  toolChoice: { name: 'add_todo' },
};
const narrowed = oneItemArguments({ tool: 'add_todo', key: 'text', items: ['Milk', 'eggs', 'bread'] }, [addTodo]);
const hermes = toolFormatNamed('hermes');

describe('narrowed arguments', () => {
  it('hold the refused text to one of its items, the rest of the schema kept', () => {
    expect(narrowed).toEqual({
      add_todo: {
        ...addTodo.parameters,
        properties: { text: { type: 'string', minLength: 1, enum: ['Milk', 'eggs', 'bread'] } },
      },
    });
    expect(oneItemArguments({ tool: 'add_note', key: 'text', items: ['a', 'b'] }, [addTodo])).toBeUndefined();
  });

  it("are in llama.cpp's grammar and not in its prompt", () => {
    const style = {
      format: hermes,
      prompt: markupPrompt(chatTemplate('chatml'), hermes, { base: false }),
      contextWindow: 4096,
      temperature: 0,
    };
    const free = toWllamaRequest(request, style);
    const held = toWllamaRequest({ ...request, narrowedArguments: narrowed }, style);
    expect(held.prompt).toBe(free.prompt);
    for (const item of ['Milk', 'eggs', 'bread']) {
      expect(String(held.params.grammar)).toContain(item);
      expect(String(free.params.grammar)).not.toContain(item);
    }
  });

  it("are in web-llm's structural tag and not in its messages", () => {
    const style = { native: false, grammar: 'structural-tag' as const, format: hermes, contextWindow: 4096 };
    const free = toWebLLMRequest(request, style);
    const held = toWebLLMRequest({ ...request, narrowedArguments: narrowed }, style);
    expect(held.request.messages).toEqual(free.request.messages);
    for (const item of ['Milk', 'eggs', 'bread']) {
      expect(JSON.stringify(held.request.response_format)).toContain(item);
      expect(JSON.stringify(free.request.response_format)).not.toContain(item);
    }
  });
});
