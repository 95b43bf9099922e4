/**
 * Arm `native`: the model's runtime parses tool calls its own way.
 * - GGUF: wllama's createChatCompletion with `tools` (llama.cpp's templates
 *   and parsers), the `wllama` chat backend inside native-tools-engine.ts.
 * - web-llm: its own function calling, which it has for the Hermes 8B ids only.
 * - mechanics: the engine module on a scripted backend that returns the
 *   answer as OpenAI tool calls (arguments as JSON strings).
 */
import { callsToolsNatively } from '../../src/model/engines/webllm/native-models';
import type { Arm } from './arm';
import type { ChatReply } from './chat-types';
import { cutOff } from './cut-off';
import { wllamaBackend } from './wllama-backend';
import { engineModuleUrl } from './engine-url';

export const native: Arm = {
  name: 'native',
  label: "native (the runtime's own tool calling)",
  modelFor(model, script) {
    if (model.kind === 'webllm')
      return callsToolsNatively(model.modelId, true)
        ? { engine: 'webllm', modelId: model.modelId, nativeToolCalls: true }
        : { unavailable: `web-llm calls tools natively only for its Hermes 8B ids, not ${model.modelId}` };
    if (model.kind === 'gguf')
      return {
        engine: 'module',
        url: engineModuleUrl('native-tools-engine'),
        options: { backend: wllamaBackend(model) },
      };
    if (!script) throw new Error('The mechanics check needs each case’s scripted answer.');
    const reply: ChatReply = {
      content: script.text,
      toolCalls: script.calls.map((call) => {
        const json = JSON.stringify(call.args);
        return { name: call.name, arguments: script.cut ? cutOff(json) : json };
      }),
    };
    return {
      engine: 'module',
      url: engineModuleUrl('native-tools-engine'),
      options: { backend: { kind: 'scripted', reply } },
    };
  },
};
