/**
 * Arm `fenced-json` as an engine module (model: { engine: 'module', url }):
 * the AI SDK's in-browser providers' way, on a chat backend of its own, so
 * that none of our prompt, grammar or reader is involved. The prompt and the
 * reading are theirs (fenced-json-messages.ts, fenced-json-read.ts), and only
 * the first call of a turn is passed on, as they do. Blocks that give no call
 * are reported as unreadable (they drop them), so valid-call rates compare.
 */
import type { ModelDelta, ModelRequest } from '../../src/model/engine';
import type { EngineModuleEngine } from '../../src/model/model-options';
import { chatBackend, type ChatBackendOptions } from './chat-backend';
import type { ChatBackend } from './chat-types';
import { fencedJsonMessages } from './fenced-json-messages';
import { readFencedCalls } from './fenced-json-read';

export interface FencedJsonEngineOptions {
  backend: ChatBackendOptions;
}

export default async function createFencedJsonEngine({
  backend,
}: FencedJsonEngineOptions): Promise<EngineModuleEngine> {
  const chat = await chatBackend(backend);
  return {
    info: { modelId: `fenced-json/${chat.label}`, label: `AI SDK fenced JSON on ${chat.label}`, nativeToolCalls: true },
    generate: (request, signal) => respond(chat, request, signal),
    dispose: async () => chat.dispose?.(),
  };
}

async function* respond(chat: ChatBackend, request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelDelta> {
  const reply = await chat.chat({
    messages: fencedJsonMessages(request.messages, request.tools),
    maxTokens: request.sampling?.maxTokens,
    signal,
  });
  const read = readFencedCalls(reply.content);
  const first = read.calls.slice(0, 1);
  if (read.text) yield { type: 'text', text: read.text };
  for (const call of first) yield { type: 'tool-call', call };
  for (const raw of read.unreadable)
    yield { type: 'tool-call-error', raw, message: 'This block holds no call: write {"name": …, "arguments": {…}}.' };
  yield {
    type: 'finish',
    reason: first.length || read.unreadable.length ? 'tool-calls' : 'stop',
    ...(reply.usage && { usage: reply.usage }),
    raw: reply.content,
  };
}
