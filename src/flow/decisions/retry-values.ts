/**
 * A call whose values were wrong is written again once, with the reason: a
 * round of calls that were all refused for their arguments (they failed the
 * tool's schema, named no tool, or named an address the visitor never gave:
 * grounded-values.ts), or that the tool itself failed (its error says what
 * it has: "No to-do matches "oat milk". Existing: Buy milk."), does not
 * count as one of the run's rounds, and the step after it is held to a call
 * of the same tools, without the optional values that were refused or that
 * the tool's error quotes. Once a run: a model that gets it wrong twice answers in
 * words. The run's log keeps both tries.
 *
 * Without it, a small model's one round (ModelInfo.toolRounds) was spent on
 * the bad call, and the step after it could only answer in words.
 */
import type { AgentEvent } from '../../session/event';
import { functionCalls, functionResponses } from '../../session/parts';
import { TOOL_FAILED } from '../call-processors/run-tool';
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import type { Invocation, RequestProcessor } from '../types';
import { ORDER_NOT_ASKED } from './asked-order';
import { UNGROUNDED_VALUE } from './grounded-values';
import { oneItemArguments, SEVERAL_IN_ONE } from './one-item-each';
import { quotedOptionalValues } from './quoted-values';

/** The answers a call's values earn, and no other (a person's no, a repeat, a timeout stay a round). */
const BAD_VALUES = new Set([
  'invalid-arguments',
  'unknown-tool',
  UNGROUNDED_VALUE,
  SEVERAL_IN_ONE,
  ORDER_NOT_ASKED,
  TOOL_FAILED,
]);

/** The run's model steps that made calls, the one retried round left out (it is tried again). */
export function countedRounds(inv: Invocation): AgentEvent[] {
  const run = inv.history.filter((event) => event.invocationId === inv.invocationId);
  const rounds = run.filter((event) => event.content?.role === 'model' && functionCalls(event).length);
  const retried = inv.decisions?.retry ? rounds.find((round) => badValuesOnly(round, run)) : undefined;
  return rounds.filter((round) => round !== retried);
}

/** Holds the step after the run's first round of bad values to a call of the same tools. */
export const retryValuesProcessor: RequestProcessor = (inv, step) => {
  if (!inv.decisions?.retry || step.messages.at(-1)?.role !== 'tool') return;
  const run = inv.history.filter((event) => event.invocationId === inv.invocationId);
  const rounds = run.filter((event) => event.content?.role === 'model' && functionCalls(event).length);
  const last = rounds.at(-1);
  if (!last || rounds.findIndex((round) => badValuesOnly(round, run)) !== rounds.length - 1) return;
  const tools = [...new Set(functionCalls(last).map((call) => call.name))].filter((name) =>
    step.tools.some((tool) => tool.name === name),
  );
  if (!tools.length) return;
  step.toolChoice = tools.length === 1 ? { name: tools[0]! } : 'required';
  if (tools.length > 1) step.allowedTools = tools;
  // Several items packed in one call: each call of the retry takes one of them.
  const packed = inv.run.oneItemEach;
  const narrowed = packed && !packed.retried && oneItemArguments(packed, step.tools);
  if (narrowed) step.narrowedArguments = narrowed;
  // A needed value that only said the action: the retry writes one of the things the request names.
  const things = inv.run.thingsAsked && oneItemArguments(inv.run.thingsAsked, step.tools);
  if (things) step.narrowedArguments = { ...step.narrowedArguments, ...things };
  // An optional value no one asked for (grounded-values.ts), or one the tool's error quotes (quoted-values.ts):
  // the retry writes the call without it.
  const leftOut = quotedOptionalValues(functionCalls(last), run.flatMap(functionResponses), step.tools);
  if (inv.run.leftOut) leftOut.set(inv.run.leftOut.tool, new Set([inv.run.leftOut.key]));
  for (const [name, keys] of leftOut) {
    const parameters = withoutArguments(name, keys, step.tools);
    if (parameters) step.narrowedArguments = { ...step.narrowedArguments, [name]: parameters };
  }
  // Sorted the other way than asked: the retry writes the order asked.
  const order = inv.run.orderAsked;
  const ordered = order && heldTo(order, step.narrowedArguments ?? {}, step.tools);
  if (ordered) step.narrowedArguments = { ...step.narrowedArguments, [order.tool]: ordered };
};

/** The tool's parameters (as narrowed so far) with `key` held to `value`, which the retry must write. */
function heldTo(
  { tool: name, key, value }: { tool: string; key: string; value: unknown },
  narrowed: Record<string, ToolDeclaration['parameters']>,
  tools: readonly ToolDeclaration[],
): ToolDeclaration['parameters'] | undefined {
  const parameters = narrowed[name] ?? tools.find((candidate) => candidate.name === name)?.parameters;
  const properties = parameters?.properties as Record<string, JsonSchema> | undefined;
  const property = properties?.[key];
  if (!parameters || !property || typeof property !== 'object') return undefined;
  const required = [...new Set([...((parameters.required as string[] | undefined) ?? []), key])];
  return { ...parameters, properties: { ...properties, [key]: { ...property, enum: [value] } }, required };
}

/** The tool's parameters without `keys`, and nothing in their place. */
function withoutArguments(
  name: string,
  keys: ReadonlySet<string>,
  tools: readonly ToolDeclaration[],
): ToolDeclaration['parameters'] | undefined {
  const tool = tools.find((candidate) => candidate.name === name);
  const properties = tool?.parameters.properties as Record<string, unknown> | undefined;
  if (!tool || !properties || ![...keys].some((key) => key in properties)) return undefined;
  const kept = Object.fromEntries(Object.entries(properties).filter(([key]) => !keys.has(key)));
  return { ...tool.parameters, properties: kept, additionalProperties: false };
}

function badValuesOnly(round: AgentEvent, run: readonly AgentEvent[]): boolean {
  const ids = new Set(functionCalls(round).map((call) => call.id));
  const answers = run.flatMap(functionResponses).filter((response) => ids.has(response.id));
  return answers.length === ids.size && answers.every((answer) => answer.error && BAD_VALUES.has(answer.code ?? ''));
}
