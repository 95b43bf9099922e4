/**
 * web-llm's streamed ChatCompletionChunks as our ModelDeltas.
 *
 * - prompt/plain mode: content is the model's text; calls in it are held back
 *   and parsed when the model stops (stream-tool-calls.ts).
 * - native mode: content is the raw JSON of web-llm's Hermes grammar, not
 *   text for a person; the calls arrive parsed in the last chunk. When web-llm
 *   cannot parse them it throws (ToolCallOutput*Error); that becomes a
 *   tool-call-error the model can correct from, not a failed run.
 * - the usage arrives in a chunk of its own with no choices.
 */
import type { ChatCompletionChunk, ChatCompletionFinishReason } from '@mlc-ai/web-llm';
import type { FinishReason, ModelDelta } from './engine';
import type { Usage } from '../session/event';
import { CALL_FORMAT_HINT, parseToolCalls, unknownToolMessage } from './parse-tool-calls';
import { parseLenientJson } from './repair-json';
import { ToolCallStream } from './stream-tool-calls';
import type { WebLLMRequestPlan } from './webllm-request';

export async function* toModelDeltas(
  chunks: AsyncIterable<ChatCompletionChunk>,
  plan: Pick<WebLLMRequestPlan, 'mode' | 'toolNames'>,
): AsyncGenerator<ModelDelta> {
  const native = plan.mode === 'native';
  const stream = new ToolCallStream(plan.mode === 'plain' ? undefined : plan.toolNames);
  let nativeOutput = '';
  let reason: ChatCompletionFinishReason | null = null;
  let usage: Usage | undefined;
  let callCount = 0;

  try {
    for await (const chunk of chunks) {
      if (chunk.usage)
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
      const choice = chunk.choices[0];
      if (!choice) continue;
      const content = choice.delta.content ?? '';
      if (native) nativeOutput += content;
      else if (content) {
        const visible = stream.push(content);
        if (visible) yield { type: 'text', text: visible };
      }
      for (const call of choice.delta.tool_calls ?? []) {
        const delta = nativeCall(call.function?.name, call.function?.arguments, call.id, plan.toolNames);
        if (delta.type === 'tool-call') callCount += 1;
        yield delta;
      }
      if (choice.finish_reason) reason = choice.finish_reason;
    }
  } catch (error) {
    if (!native || !isToolCallOutputError(error)) throw error;
    yield {
      type: 'tool-call-error',
      raw: nativeOutput,
      message: `Your tool calls could not be read (${(error as Error).message}). Answer with a JSON array of calls: [{"name": "<tool name>", "arguments": {…}}].`,
    };
    yield { type: 'finish', reason: 'tool-calls', usage };
    return;
  }

  if (!native) {
    const rest = stream.end();
    if (rest.text) yield { type: 'text', text: rest.text };
    for (const call of rest.calls) yield { type: 'tool-call', call };
    for (const error of rest.errors) yield { type: 'tool-call-error', ...error };
    callCount += rest.calls.length;
    if (rest.errors.length && reason === 'stop') reason = 'tool_calls';
  } else if (reason === 'stop' && nativeOutput.trim() && callCount === 0) {
    // Hermes may still answer in text when its grammar is off (e.g. web-llm returned no tool_calls).
    const parsed = parseToolCalls(nativeOutput, { toolNames: plan.toolNames });
    if (parsed.text) yield { type: 'text', text: parsed.text };
  }
  yield { type: 'finish', reason: finishReason(reason, callCount), usage };
}

function nativeCall(
  name: string | undefined,
  argsText: string | undefined,
  id: string | undefined,
  toolNames: string[],
): ModelDelta {
  const raw = JSON.stringify({ name, arguments: argsText });
  if (!name) return { type: 'tool-call-error', raw, message: `Your tool call has no name. ${CALL_FORMAT_HINT}` };
  if (!toolNames.includes(name))
    return { type: 'tool-call-error', name, raw, message: unknownToolMessage(name, toolNames) };
  const parsed = argsText?.trim() ? parseLenientJson(argsText) : { ok: true as const, value: {}, repaired: false };
  if (!parsed.ok)
    return {
      type: 'tool-call-error',
      name,
      raw,
      message: `The arguments of your call to "${name}" are not valid JSON (${parsed.error}).`,
    };
  // web-llm numbers streamed calls by index only; ids are the loop's to assign.
  return { type: 'tool-call', call: id ? { id, name, args: parsed.value } : { name, args: parsed.value } };
}

function finishReason(reason: ChatCompletionFinishReason | null, callCount: number): FinishReason {
  if (reason === 'abort') return 'abort';
  if (reason === 'length') return 'length';
  if (reason === 'tool_calls' || callCount > 0) return 'tool-calls';
  return 'stop';
}

const TOOL_CALL_OUTPUT_ERRORS = new Set([
  'ToolCallOutputParseError',
  'ToolCallOutputInvalidTypeError',
  'JSONFieldError' /* web-llm's ToolCallOutputMissingFieldsError */,
]);

function isToolCallOutputError(error: unknown): boolean {
  return error instanceof Error && TOOL_CALL_OUTPUT_ERRORS.has(error.name);
}
