/**
 * The `wllama` chat backend: a GGUF loaded into wllama in the worker, asked
 * through wllama's createChatCompletion, so that llama.cpp renders the chat
 * template and, when `tools` are given, writes the tools into the prompt,
 * constrains the answer and parses the calls its own way (its jinja
 * templates and chat parsers; a template it knows no tool syntax for gets
 * its generic JSON form). Nothing of ours is involved but the download
 * (the same Cache Storage entry as our engine's, so one download serves all
 * arms).
 *
 * A GGUF without a chat template (a base model) would get llama.cpp's
 * default, ChatML; a Gemma one gets Gemma's turn markup instead
 * (GEMMA_TURNS), the markup our own arms write for it, so that the arms
 * differ in their tool protocol only.
 */
import { Wllama, type ChatCompletionMessage } from '@wllama/wllama/esm/index.js';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { threadsFor } from '../../src/model/engines/wllama/wllama-environment';
import { modelFiles } from '../../src/model/engines/wllama/wllama-files';
import type { ChatBackend, ChatMessage, ChatReply, ChatRequest } from './chat-types';

export interface WllamaChatOptions {
  kind: 'wllama';
  /** The GGUF's address (relative ones are read against the worker's). */
  url: string;
  contextWindow?: number;
  threads?: number;
}

/** Gemma's turns (a system message joins the first user turn), as a jinja template for llama.cpp. */
const GEMMA_TURNS = `{%- if messages[0]['role'] == 'system' -%}
{%- set first = messages[0]['content'] + '\\n\\n' -%}{%- set rest = messages[1:] -%}
{%- else -%}{%- set first = '' -%}{%- set rest = messages -%}{%- endif -%}
{%- for message in rest -%}
<start_of_turn>{{ 'model' if message['role'] == 'assistant' else 'user' }}
{{ (first if loop.first else '') + (message['content'] or '') }}<end_of_turn>
{% endfor -%}
{%- if add_generation_prompt -%}<start_of_turn>model
{% endif -%}`;

export async function wllamaChat(options: WllamaChatOptions): Promise<ChatBackend> {
  const url = new URL(options.url, self.location.href).href;
  const files = await modelFiles([url]);
  const { threads } = threadsFor(options.threads);
  const load = async (chatTemplate?: string) => {
    const instance = new Wllama({ default: new URL(wasmUrl, self.location.href).href }, { logger: quietLogger });
    instance.setCompat(null); // the page's own files only
    await instance.loadModel(files.blobs, {
      n_ctx: options.contextWindow ?? 4096,
      n_threads: threads,
      n_parallel: 1,
      jinja: true,
      swa_full: true,
      ...(chatTemplate && { chat_template: chatTemplate }),
    });
    return instance;
  };
  let wllama = await load();
  const meta = wllama.getModelMetadata().meta;
  const ownTemplate = Boolean(meta['tokenizer.chat_template']);
  if (!ownTemplate && /^gemma/.test(meta['general.architecture'] ?? '')) {
    await wllama.exit();
    wllama = await load(GEMMA_TURNS);
  }
  const name = meta['general.name'] ?? url.split('/').pop()!;
  return {
    label: `${name} (wllama createChatCompletion${ownTemplate ? '' : ', Gemma turns'})`,
    chat: (request) => complete(wllama, request),
    dispose: () => wllama.exit(),
  };
}

async function complete(wllama: Wllama, { messages, tools, maxTokens, signal }: ChatRequest): Promise<ChatReply> {
  const response = await wllama.createChatCompletion({
    messages: messages.map(wllamaMessage),
    ...(tools?.length && { tools: tools as never, tool_choice: 'auto' as const }),
    temperature: 0,
    ...(maxTokens !== undefined && { max_tokens: maxTokens }),
    cache_prompt: true,
    stream: false,
    ...(signal && { abortSignal: signal }),
  });
  const message = response.choices[0]?.message;
  return {
    content: message?.content ?? '',
    toolCalls: (message?.tool_calls ?? []).map((call) => ({
      name: call.function.name,
      arguments: call.function.arguments,
    })),
    usage: { promptTokens: response.usage.prompt_tokens, completionTokens: response.usage.completion_tokens },
  };
}

/** A message as wllama's createChatCompletion takes it (OpenAI's names: tool_calls, tool_call_id). */
function wllamaMessage(message: ChatMessage): ChatCompletionMessage {
  if (message.role === 'tool') return { role: 'tool', content: message.content, tool_call_id: message.toolCallId };
  if (message.role !== 'assistant' || !message.toolCalls?.length)
    return { role: message.role, content: message.content };
  return {
    role: 'assistant',
    content: message.content,
    tool_calls: message.toolCalls.map((call, i) => ({
      id: call.id ?? `call_${i}`,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

const quietLogger = {
  debug: () => undefined,
  log: () => undefined,
  info: () => undefined,
  warn: (...args: unknown[]) => console.warn(...args),
  error: (...args: unknown[]) => console.error(...args),
};
