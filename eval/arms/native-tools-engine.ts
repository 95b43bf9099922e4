/**
 * Arm `native` as an engine module: the model's runtime calls tools its own
 * way (llama.cpp's chat templates and parsers through wllama's
 * createChatCompletion with `tools`), on a chat backend of its own. The tools
 * go as OpenAI function tools; each returned tool call's `arguments` string is
 * parsed here, and one that is not JSON is reported as unreadable. The
 * history goes in OpenAI's form too, calls and results included
 * (openai-message.ts), so a conversation reads as the template writes it.
 */
import type { ModelDelta, ModelRequest } from '../../src/model/engine';
import type { EngineModuleEngine } from '../../src/model/model-options';
import { chatBackend, type ChatBackendOptions } from './chat-backend';
import type { ChatBackend } from './chat-types';
import { openAiMessage } from './openai-message';

export interface NativeToolsEngineOptions {
  backend: ChatBackendOptions;
}

export default async function createNativeToolsEngine({
  backend,
}: NativeToolsEngineOptions): Promise<EngineModuleEngine> {
  const chat = await chatBackend(backend);
  return {
    info: { modelId: `native/${chat.label}`, label: `native tool calling on ${chat.label}`, nativeToolCalls: true },
    generate: (request, signal) => respond(chat, request, signal),
    dispose: async () => chat.dispose?.(),
  };
}

async function* respond(chat: ChatBackend, request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelDelta> {
  const reply = await chat.chat({
    messages: request.messages.map(openAiMessage),
    tools: request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
    maxTokens: request.sampling?.maxTokens,
    signal,
  });
  if (reply.content) yield { type: 'text', text: reply.content };
  for (const call of reply.toolCalls ?? []) {
    const args = parseArguments(call.arguments);
    if (args === undefined)
      yield { type: 'tool-call-error', name: call.name, raw: call.arguments, message: 'The arguments are not JSON.' };
    else yield { type: 'tool-call', call: { name: call.name, args } };
  }
  yield {
    type: 'finish',
    reason: reply.toolCalls?.length ? 'tool-calls' : 'stop',
    ...(reply.usage && { usage: reply.usage }),
    raw: reply.content + (reply.toolCalls?.length ? JSON.stringify(reply.toolCalls) : ''),
  };
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return undefined;
  }
}
