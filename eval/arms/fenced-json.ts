/**
 * Arm `fenced-json`: the AI SDK's in-browser providers' prompt-emulated calls
 * (fenced-json-engine.ts), on a chat backend without our format or grammar.
 * - GGUF: wllama's createChatCompletion without tools (the `wllama` chat backend).
 * - web-llm: web-llm's chat.completions, as @browser-ai/web-llm calls it, as a
 *   `webllm` kind of chat backend (not written yet: no MLC weights run here).
 * - mechanics: a scripted backend replying with the answer in ```tool_call fences.
 */
import type { Arm } from './arm';
import { cutOff } from './cut-off';
import { wllamaBackend } from './wllama-backend';
import { engineModuleUrl } from './engine-url';

export const fencedJson: Arm = {
  name: 'fenced-json',
  label: 'AI SDK fenced JSON (no grammar)',
  firstCallOnly: true,
  modelFor(model, script) {
    if (model.kind === 'gguf')
      return {
        engine: 'module',
        url: engineModuleUrl('fenced-json-engine'),
        options: { backend: wllamaBackend(model) },
      };
    if (model.kind === 'webllm') return { unavailable: 'needs a web-llm chat backend in chat-backend.ts' };
    if (!script) throw new Error('The mechanics check needs each case’s scripted answer.');
    const fences = script.calls.map(
      (call) => `\`\`\`tool_call\n${JSON.stringify({ name: call.name, arguments: call.args })}\n\`\`\``,
    );
    const written = [script.text, ...fences].filter(Boolean).join('\n');
    const content = script.cut ? cutOff(written, [script.text, fences[0]].filter(Boolean).join('\n')) : written;
    return {
      engine: 'module',
      url: engineModuleUrl('fenced-json-engine'),
      options: { backend: { kind: 'scripted', reply: { content } } },
    };
  },
};
