// agent.contextUsage(): how the next step spends the model's window, before the model is loaded or with the estimate.
import { expect, test } from 'vitest';
import { type ContextUsage, toolsPromptText } from '../../src/model/context-usage';
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

test("an engine's estimate that a step showed reads short is scaled as the window guard scales it; a tokenizer's count is not", async () => {
  const url = new URL('../model/fixtures/engines/long-prompts.js', import.meta.url).href;
  // About 150 tokens by the engine's count; the model says it read 1,000.
  const instructions = 'Keep the notes of this page. '.repeat(20);
  const usages: { before: ContextUsage; after: ContextUsage }[] = [];
  for (const tokenizer of [false, true]) {
    const agent = await start({
      model: { engine: 'module', url, options: { promptTokens: 1000, tokenizer } },
      instructions,
      dbName: uniqueDb('usage-scale'),
    });
    const before = await agent.contextUsage();
    await agent.send('Note that the meeting moved to Friday.');
    usages.push({ before, after: await agent.contextUsage() });
  }
  const [estimate, counted] = usages;
  expect(estimate!.before.instructions).toBe(Math.ceil(instructions.length / 4));
  // The estimate: scaled by what the step showed (1,000 read of about 160 counted), so the parts come near it.
  expect(estimate!.after.instructions).toBeGreaterThanOrEqual(estimate!.before.instructions * 5);
  const said = estimate!.after.instructions + estimate!.after.tools + estimate!.after.history;
  expect(said).toBeGreaterThan(1000);
  expect(estimate!.after.free).toBe(8192 - said);
  // The tokenizer's count: reported as it is, the step's 1,000 notwithstanding.
  expect(counted!.after.instructions).toBe(counted!.before.instructions);
  expect(counted!.after.instructions).toBe(Math.ceil(instructions.length / 4));
});
