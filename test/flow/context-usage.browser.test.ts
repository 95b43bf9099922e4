// agent.contextUsage(): how the next step spends the model's window, before the model is loaded or with the estimate.
import { expect, test } from 'vitest';
import { toolsPromptText } from '../../src/model/context-usage';
import { estimateTokens } from '../../src/model/token-estimate';
import { toDeclaration } from '../../src/tools/to-declaration';
import { agentsClosedAfterEach, todoList, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();

test('contextUsage() says what the instructions, the tools and the conversation take of the window, and what is free', async () => {
  const { addTodo } = todoList();
  const instructions = 'You keep the to-do list of this page. Answer briefly.';
  const agent = await start({
    model: {
      engine: 'scripted',
      contextWindow: 4096,
      turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] }, { text: 'Milk is on your list.' }],
    },
    instructions,
    tools: [addTodo],
    dbName: uniqueDb('usage'),
  });
  const before = await agent.contextUsage();
  // The scripted engine has no tokenizer: the estimate counts, as it does for web-llm before the model is loaded.
  expect(before).toEqual({
    window: 4096,
    instructions: estimateTokens(instructions),
    tools: estimateTokens(toolsPromptText(agent.info!.model, [toDeclaration(addTodo)])),
    history: 0,
    free:
      4096 -
      estimateTokens(instructions) -
      estimateTokens(toolsPromptText(agent.info!.model, [toDeclaration(addTodo)])),
  });

  await agent.send('Remember to buy milk, please.');
  const after = await agent.contextUsage();
  expect(after.instructions).toBe(before.instructions);
  expect(after.tools).toBe(before.tools);
  // The user message, the call, its result and the answer, each with its template's markers.
  expect(after.history).toBeGreaterThan(estimateTokens('Remember to buy milk, please.Milk is on your list.'));
  expect(after.free).toBe(after.window - after.instructions - after.tools - after.history);
});
