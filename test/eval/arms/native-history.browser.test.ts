/**
 * The native arm's history in a real llama.cpp (wllama's createChatCompletion
 * on a tiny random-weight model carrying Qwen3's own chat template): an
 * assistant turn's calls and the tool messages that answer them reach the
 * template, which writes them into the prompt (the prompt grows with the
 * call's arguments), where the arm once sent results as user text and dropped
 * the calls.
 */
import { afterAll, expect, test } from 'vitest';
import createNativeToolsEngine from '../../../eval/arms/native-tools-engine';
import type { ModelDelta, ModelRequest } from '../../../src/model/engine';
import type { EngineModuleEngine } from '../../../src/model/model-options';
import type { ToolDeclaration } from '../../../src/tools/declaration';

const tool = {
  name: 'add_todo',
  description: 'Add an item to the to-do list.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
} as unknown as ToolDeclaration;
let engine: EngineModuleEngine | undefined;
afterAll(async () => engine?.dispose?.());

async function promptTokens(messages: ModelRequest['messages']): Promise<number> {
  const deltas: ModelDelta[] = [];
  for await (const delta of engine!.generate({ messages, tools: [tool], sampling: { maxTokens: 4 } }))
    deltas.push(delta);
  const finish = deltas.find((delta) => delta.type === 'finish');
  return finish?.type === 'finish' ? (finish.usage?.promptTokens ?? 0) : 0;
}

test('a call and its result in the history are written into the prompt by the model’s own template', async () => {
  engine = await createNativeToolsEngine({ backend: { kind: 'wllama', url: '/models/tiny-qwen3-hermes.gguf' } });
  const answered = (text: string): ModelRequest['messages'] => [
    { role: 'user', content: 'Put it on my list' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'add_todo', args: { text } }] },
    { role: 'tool', content: '{"id":"todo-1"}', toolCallId: 'call-1', name: 'add_todo' },
  ];
  const short = await promptTokens(answered('milk'));
  const long = await promptTokens(answered('milk, and a long list of other things to see in the prompt '.repeat(3)));
  expect(short).toBeGreaterThan(0);
  // The call's arguments are in the prompt: the template wrote the assistant's call, which the arm once dropped.
  expect(long - short).toBeGreaterThan(20);
}, 120_000);
