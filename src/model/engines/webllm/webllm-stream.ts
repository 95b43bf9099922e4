/**
 * web-llm's streamed ChatCompletionChunks as our ModelDeltas.
 *
 * - prompt/plain mode: content is the model's text; reasoning and text stream
 *   as they come, calls are held back and read when the model stops
 *   (stream-tool-calls.ts), in whatever family's format the model wrote them.
 * - native mode: content is the raw JSON of web-llm's Hermes grammar, not
 *   text for a person; the calls arrive parsed in the last chunk. When web-llm
 *   cannot parse them it throws (ToolCallOutput*Error); that becomes a
 *   tool-call-error the model can correct from, not a failed run.
 * - the usage arrives in a chunk of its own with no choices.
 * - `finish.raw` is everything the model generated, for replay.
 * - output that falls into a loop (repeating-tail.ts) is stopped with `stop`
 *   (web-llm's interruptGenerate) and ends as at the token limit.
 */
import type { ChatCompletionChunk, ChatCompletionFinishReason } from '@mlc-ai/web-llm';
import type { FinishReason, ModelDelta } from '../../engine';
import type { Usage } from '../../usage';
import { parseLiteral } from '../../readers/literal';
import { notAllowedMessage, readModelOutput, unknownToolMessage } from '../../readers/read-model-output';
import { loopNotice, RepeatingTail } from '../../readers/repeating-tail';
import { ToolCallStream } from '../../readers/stream-tool-calls';
import type { WebLLMRequestPlan } from './webllm-request';
import { OUTPUT_VOCABULARY } from '../../formats/output-vocabulary';

export async function* toModelDeltas(
  chunks: AsyncIterable<ChatCompletionChunk>,
  plan: Pick<WebLLMRequestPlan, 'mode' | 'toolNames' | 'tools' | 'format' | 'jsonAnswer'>,
  stop: () => void = () => {},
): AsyncGenerator<ModelDelta> {
  const native = plan.mode === 'native';
  const stream = new ToolCallStream({
    vocabulary: OUTPUT_VOCABULARY,
    tools: plan.tools,
    allowed: plan.toolNames,
    example: plan.format.example,
    holdAll: plan.jsonAnswer,
  });
  let raw = '';
  let reason: ChatCompletionFinishReason | null = null;
  let usage: Usage | undefined;
  let callCount = 0;
  const loop = new RepeatingTail();
  let looped = false;

  try {
    for await (const chunk of chunks) {
      if (chunk.usage)
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
      const choice = chunk.choices[0];
      if (!choice) continue;
      // After the stop, web-llm may still hand over what it had: it is not the step's.
      if (looped) continue;
      const content = choice.delta.content ?? '';
      raw += content;
      if (!native && content) for (const piece of stream.push(content)) yield piece;
      if (content && loop.push(content)) {
        looped = true;
        yield loopNotice(loop.piece!, raw.length);
        stop();
        continue;
      }
      for (const call of choice.delta.tool_calls ?? []) {
        const delta = nativeCall(call.function?.name, call.function?.arguments, call.id, plan);
        if (delta.type === 'tool-call') callCount += 1;
        yield delta;
      }
      if (choice.finish_reason) reason = choice.finish_reason;
    }
  } catch (error) {
    if (!native || !isToolCallOutputError(error)) throw error;
    yield {
      type: 'tool-call-error',
      raw,
      message: `Your tool calls could not be read (${(error as Error).message}). Answer with a JSON array of calls: [{"name": "<tool name>", "arguments": {…}}].`,
    };
    yield { type: 'finish', reason: 'tool-calls', usage, raw };
    return;
  }

  if (looped) reason = 'length';
  const finish = finishReason(reason, 0);
  if (!native) {
    const rest = stream.end(finish, looped);
    // A loop whose calls were read ended a turn of calls; one of words was cut off, as at the token limit.
    if (looped && rest.calls.length) reason = 'tool_calls';
    if (rest.reasoning) yield { type: 'reasoning', text: rest.reasoning };
    if (rest.text) yield { type: 'text', text: rest.text };
    for (const call of rest.calls) yield { type: 'tool-call', call };
    for (const error of rest.errors) yield { type: 'tool-call-error', ...error };
    callCount += rest.calls.length + rest.errors.length;
  } else if (reason === 'stop' && raw.trim() && callCount === 0) {
    // Hermes may still answer in text when its grammar is off (e.g. web-llm returned no tool_calls).
    const read = readModelOutput(raw, { vocabulary: OUTPUT_VOCABULARY, tools: plan.tools, allowed: plan.toolNames });
    if (read.text) yield { type: 'text', text: read.text };
  }
  yield { type: 'finish', reason: finishReason(reason, callCount), usage, raw };
}

function nativeCall(
  name: string | undefined,
  argsText: string | undefined,
  id: string | undefined,
  plan: Pick<WebLLMRequestPlan, 'toolNames' | 'tools'>,
): ModelDelta {
  const raw = JSON.stringify({ name, arguments: argsText });
  const hint = 'Answer with a JSON array of calls: [{"name": "<tool name>", "arguments": {…}}].';
  const { toolNames } = plan;
  if (!name) return { type: 'tool-call-error', raw, message: `Your tool call has no name. ${hint}` };
  // web-llm's native grammar cannot narrow to the step's tools: a described tool the step does not allow is refused here.
  if (!toolNames.includes(name) && plan.tools.some((tool) => tool.name === name))
    return { type: 'tool-call-error', name, raw, message: notAllowedMessage(name, toolNames) };
  if (!toolNames.includes(name))
    return { type: 'tool-call-error', name, raw, message: unknownToolMessage(name, toolNames) };
  const parsed = argsText?.trim() ? parseLiteral(argsText) : { ok: true as const, value: {}, end: 0 };
  if (!parsed.ok)
    return {
      type: 'tool-call-error',
      name,
      raw,
      message: `The arguments of your call to "${name}" are not valid JSON (${parsed.why}). ${hint}`,
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
