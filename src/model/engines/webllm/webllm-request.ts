/**
 * Our ModelRequest as web-llm's ChatCompletionRequest. Three shapes:
 *
 * - native: a model web-llm calls tools for (native-models.ts): `tools` and
 *   web-llm's `tool_choice`. web-llm then writes its own system prompt and
 *   refuses ours, so our instructions go in front of the first user message.
 *   The tool list is the run's (fixed), and the results of one turn are one
 *   tool message, so each step extends the conversation web-llm holds.
 * - prompt: any other model with tools: the family's format (model/formats)
 *   describes the tools in the system prompt and its grammar constrains the
 *   step. The prompt depends on `request.tools` only; `allowedTools` and
 *   `toolChoice` narrow the grammar, so the prompt (and web-llm's KV cache)
 *   stays the same across the steps of a run.
 * - plain: no tools.
 *
 * An earlier model turn is replayed as the model generated it (`raw`, minus
 * its end-of-turn token, which web-llm's template adds again); without it the
 * format writes the turn back. Text the model did not write is escaped, and so
 * are a call written back and the tools' descriptions (escape-parts.ts). Where
 * the system text and the tool results go follows the model's trained template
 * (webllm-conversation.ts); without a tool role, results share a user turn next
 * to them (alternating-turns.ts).
 */
import type { ChatCompletionMessageParam, ChatCompletionRequestStreaming, ChatCompletionTool } from '@mlc-ai/web-llm';
import type { ToolDeclaration } from '../../../tools/declaration';
import type { ChatMessage, ModelRequest, ModelToolCall } from '../../engine';
import { escapeUntrusted, type Escape } from '../../escape';
import { escapeCall, shownTools } from '../../escape-parts';
import { alternatingTurns } from '../alternating-turns';
import { conversationTurns } from '../conversation-turns';
import { defaultMaxTokens } from '../default-max-tokens';
import { grammarTools } from '../grammar-tools';
import { withoutEndOfTurn } from '../without-end-of-turn';
import { allowedNames, planToolCalls } from '../../formats/tool-call-plan';
import type { ToolFormat } from '../../formats/tool-format';
import { jsonResponseFormat } from '../../tool-grammar';
import type { ConversationFit } from './webllm-conversation';

export type RequestMode = 'native' | 'prompt' | 'plain';
export type GrammarForm = 'structural-tag' | 'json';

export interface WebLLMRequestPlan {
  mode: RequestMode;
  request: ChatCompletionRequestStreaming;
  /** Every tool described to the model. */
  tools: ToolDeclaration[];
  /** Names a call may use in this step. */
  toolNames: string[];
  format: ToolFormat;
  /** Tools constrained by name only in this step, with the reason. */
  relaxed: Map<string, string>;
  /** Under the JSON-schema fallback the whole answer is one JSON value. */
  jsonAnswer: boolean;
}

export interface RequestStyle {
  /** The loaded model has web-llm's native function calling. */
  native: boolean;
  grammar: GrammarForm;
  format: ToolFormat;
  contextWindow: number;
  /** Tools the grammar engine refused: constrain them by name only. */
  relaxed?: ReadonlySet<string>;
  /** Send no grammar at all (the engine refused even the relaxed one). */
  unconstrained?: boolean;
  /** How the model's trained template differs from web-llm's conversation template; absent: not at all. */
  conversation?: ConversationFit;
  /** How text the model did not write is escaped (with its tokenizer's special tokens: escaperFor); default escapeUntrusted. */
  escape?: Escape;
}

export function toWebLLMRequest(request: ModelRequest, style: RequestStyle): WebLLMRequestPlan {
  const tools = request.tools;
  const choice = request.toolChoice ?? 'auto';
  const mode: RequestMode =
    tools.length === 0 ? 'plain' : style.native ? (choice === 'none' ? 'plain' : 'native') : 'prompt';
  const format = style.format;
  const escape = style.escape ?? escapeUntrusted;
  const toolNames = allowedNames(tools, { allowedTools: request.allowedTools, toolChoice: choice });
  const system = request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const conversation = request.messages.filter((m) => m.role !== 'system');
  const messages: ChatCompletionMessageParam[] = [];
  let relaxed = new Map<string, string>();
  let jsonAnswer = false;

  if (mode === 'native') {
    let instructionsPlaced = !system;
    let results: Extract<ChatMessage, { role: 'tool' }>[] = [];
    const flush = () => {
      if (results.length) messages.push(nativeResults(results, escape));
      results = [];
    };
    for (const message of conversation) {
      if (message.role === 'tool') {
        results.push(message);
        continue;
      }
      flush();
      if (message.role === 'user' && !instructionsPlaced) {
        messages.push({ role: 'user', content: `${system}\n\n${escape(message.content)}` });
        instructionsPlaced = true;
      } else messages.push(...nativeMessage(message, escape));
    }
    flush();
  } else {
    const fit: Partial<ConversationFit> = style.conversation ?? {};
    const section = mode === 'prompt' ? format.describeTools(shownTools(tools, escape)) : '';
    const parts = format.toolsFirst ? [section, system] : [system, section];
    const systemText = fit.systemText ? fit.systemText(system, section) : parts.filter(Boolean).join('\n\n');
    const turns = promptMessages(conversation, format, fit.toolRole, escape);
    if (systemText && fit.systemInFirstTurn && turns.length)
      turns[0] = {
        ...turns[0],
        content: `${systemText}\n\n${turns[0].content as string}`,
      } as ChatCompletionMessageParam;
    else if (systemText) messages.push({ role: 'system', content: systemText });
    messages.push(...turns);
  }

  const sampling = request.sampling ?? {};
  const out: ChatCompletionRequestStreaming = {
    messages,
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: sampling.maxTokens ?? defaultMaxTokens(style.contextWindow),
    ...(sampling.temperature !== undefined && { temperature: sampling.temperature }),
    ...(sampling.topP !== undefined && { top_p: sampling.topP }),
    ...(sampling.seed !== undefined && { seed: sampling.seed }),
  };
  if (mode === 'native') {
    out.tools = shownTools(tools, escape).map((tool): ChatCompletionTool => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.whenToUse ? `${tool.description} Use when: ${tool.whenToUse}` : tool.description,
        parameters: tool.parameters,
      },
    }));
    out.tool_choice = typeof choice === 'object' ? { type: 'function', function: { name: choice.name } } : 'auto';
  } else if (mode === 'prompt' && toolNames.length && !style.unconstrained) {
    if (style.grammar === 'json') {
      out.response_format = jsonResponseFormat(grammarTools(request).filter((tool) => toolNames.includes(tool.name)));
      jsonAnswer = true;
    } else {
      const plan = planToolCalls(format, grammarTools(request), {
        allowedTools: request.allowedTools,
        toolChoice: choice,
        relaxed: style.relaxed,
      });
      relaxed = plan.relaxed;
      if (plan.responseFormat)
        out.response_format = plan.responseFormat as unknown as ChatCompletionRequestStreaming['response_format'];
    }
  }
  return { mode, request: out, tools: [...tools], toolNames, format, relaxed, jsonAnswer };
}

function nativeMessage(message: ChatMessage, escape: Escape): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: escape(message.content) }];
    case 'assistant': {
      // Under web-llm's Hermes grammar the model's whole output is the JSON array of its calls.
      if (message.raw !== undefined) return [{ role: 'assistant', content: withoutEndOfTurn(message.raw) }];
      const content = message.toolCalls?.length
        ? JSON.stringify(message.toolCalls.map((call) => asWireCall(escapeCall(call, escape))))
        : escape(message.content);
      return [{ role: 'assistant', content }];
    }
    default:
      return [];
  }
}

/**
 * The results of one turn's calls as one tool message. web-llm reuses its KV
 * cache only when a request's messages but the last are the conversation it
 * holds; two tool messages in a row would leave one of them in that prefix,
 * where the cache has none, and every such step would prefill everything
 * again. Several results are told apart as Hermes's template does, each in
 * <tool_response> tags with its tool's name.
 */
function nativeResults(results: Extract<ChatMessage, { role: 'tool' }>[], escape: Escape): ChatCompletionMessageParam {
  const content =
    results.length === 1
      ? escape(results[0].content)
      : results
          .map(
            (result) =>
              `<tool_response>\n${JSON.stringify({ name: escape(result.name), content: escape(result.content) })}\n</tool_response>`,
          )
          .join('\n');
  return { role: 'tool', tool_call_id: escape(results[0].toolCallId), content };
}

/**
 * The results of one step's calls become one message, written the way the family reads them: a user
 * turn, or the template's own tool turn where it has one (one message all the same: see nativeResults).
 */
function promptMessages(
  conversation: ChatMessage[],
  format: ToolFormat,
  toolRole: ConversationFit['toolRole'],
  escape: Escape,
): ChatCompletionMessageParam[] {
  const turns = conversationTurns(conversation, format, escape);
  if (!toolRole)
    return alternatingTurns(
      turns.map((turn) =>
        turn.role === 'results' ? { role: 'user', content: format.writeResults(turn.results) } : turn,
      ),
    ) as ChatCompletionMessageParam[];
  return turns.map((turn): ChatCompletionMessageParam => {
    if (turn.role !== 'results') return turn;
    const { results } = turn;
    const content =
      toolRole.between === undefined
        ? format.writeResults(results)
        : results.map((result) => format.writeResults([result])).join(toolRole.between);
    return { role: 'tool', tool_call_id: results[0].callId, content };
  });
}

function asWireCall(call: ModelToolCall): { name: string; arguments: unknown } {
  return { name: call.name, arguments: call.args ?? {} };
}
