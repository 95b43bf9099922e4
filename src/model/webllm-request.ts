/**
 * Our ModelRequest as web-llm's ChatCompletionRequest. Three shapes:
 *
 * - native: a Hermes model web-llm calls tools for (`tools`, `tool_choice`).
 *   web-llm then writes its own system prompt and refuses ours, so our
 *   instructions go in front of the first user message.
 * - prompt: any other model with tools: the tools are described in the system
 *   prompt and decoding runs under a grammar (tool-grammar.ts).
 * - plain: no tools in this step.
 *
 * web-llm reads only `content` of assistant messages, so earlier calls are
 * written into the content in the form the model itself would produce.
 * Text the model did not write is escaped (escape.ts).
 */
import type { ChatCompletionMessageParam, ChatCompletionRequestStreaming, ChatCompletionTool } from '@mlc-ai/web-llm';
import type { ChatMessage, ModelRequest, ModelToolCall } from './engine';
import { escapeUntrusted } from './escape';
import { toolResponseFormat } from './tool-grammar';
import { describeTools } from './tool-prompt';

export type RequestMode = 'native' | 'prompt' | 'plain';
export type GrammarForm = 'structural-tag' | 'json';

export interface WebLLMRequestPlan {
  mode: RequestMode;
  request: ChatCompletionRequestStreaming;
  /** Names a call may use in this step. */
  toolNames: string[];
}

export interface RequestStyle {
  /** The loaded model has web-llm's native function calling. */
  native: boolean;
  grammar: GrammarForm;
}

export function toWebLLMRequest(request: ModelRequest, style: RequestStyle): WebLLMRequestPlan {
  const mode: RequestMode = request.tools.length === 0 ? 'plain' : style.native ? 'native' : 'prompt';
  const toolNames = request.tools.map((tool) => tool.name);
  const system = request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const conversation = request.messages.filter((m) => m.role !== 'system');
  const messages: ChatCompletionMessageParam[] = [];

  if (mode === 'native') {
    let instructionsPlaced = !system;
    for (const message of conversation) {
      if (message.role === 'user' && !instructionsPlaced) {
        messages.push({ role: 'user', content: `${system}\n\n${escapeUntrusted(message.content)}` });
        instructionsPlaced = true;
      } else messages.push(...nativeMessage(message));
    }
  } else {
    const toolSection = mode === 'prompt' ? describeTools(request.tools) : '';
    const systemText = [system, toolSection].filter(Boolean).join('\n\n');
    if (systemText) messages.push({ role: 'system', content: systemText });
    messages.push(...promptMessages(conversation));
  }

  const sampling = request.sampling ?? {};
  const out: ChatCompletionRequestStreaming = {
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(sampling.temperature !== undefined && { temperature: sampling.temperature }),
    ...(sampling.topP !== undefined && { top_p: sampling.topP }),
    ...(sampling.maxTokens !== undefined && { max_tokens: sampling.maxTokens }),
    ...(sampling.seed !== undefined && { seed: sampling.seed }),
  };
  if (mode === 'native') {
    out.tools = request.tools.map((tool): ChatCompletionTool => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.whenToUse ? `${tool.description} Use when: ${tool.whenToUse}` : tool.description,
        parameters: tool.parameters,
      },
    }));
    out.tool_choice = 'auto';
  } else if (mode === 'prompt') {
    out.response_format = toolResponseFormat(
      request.tools,
      style.grammar,
    ) as ChatCompletionRequestStreaming['response_format'];
  }
  return { mode, request: out, toolNames };
}

function nativeMessage(message: ChatMessage): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: escapeUntrusted(message.content) }];
    case 'assistant':
      // Under web-llm's Hermes grammar the model's whole output is the JSON array of its calls.
      return [
        {
          role: 'assistant',
          content: message.toolCalls?.length ? JSON.stringify(message.toolCalls.map(asWireCall)) : message.content,
        },
      ];
    case 'tool':
      return [{ role: 'tool', tool_call_id: message.toolCallId, content: escapeUntrusted(message.content) }];
    default:
      return [];
  }
}

/** Tool results become one user message per batch, inside <tool_response> tags the prompt announced. */
function promptMessages(conversation: ChatMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let responses: string[] = [];
  const flush = () => {
    if (responses.length) out.push({ role: 'user', content: responses.join('\n') });
    responses = [];
  };
  for (const message of conversation) {
    if (message.role === 'tool') {
      responses.push(
        `<tool_response>${JSON.stringify({ name: message.name, id: message.toolCallId, content: escapeUntrusted(message.content) })}</tool_response>`,
      );
      continue;
    }
    flush();
    if (message.role === 'user') out.push({ role: 'user', content: escapeUntrusted(message.content) });
    else if (message.role === 'assistant') {
      const calls = (message.toolCalls ?? []).map(
        (call) => `<tool_call>${JSON.stringify(asWireCall(call))}</tool_call>`,
      );
      out.push({ role: 'assistant', content: [escapeUntrusted(message.content), ...calls].filter(Boolean).join('\n') });
    }
  }
  flush();
  return out;
}

function asWireCall(call: ModelToolCall): { name: string; arguments: unknown } {
  return { name: call.name, arguments: call.args ?? {} };
}
