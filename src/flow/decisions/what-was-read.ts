/**
 * A question answered by reading carries what was read. When the only calls
 * of a run that ran are of tools that only read (annotations.readOnly), its
 * reply must name something those calls returned; one that names nothing of
 * it ("The tool successfully retrieved the to-do list.") or was replaced as
 * a claim is replaced by the reading itself, in plain words: "list_todos
 * returned: flour (done), sugar, butter."
 *
 * Why: held to a call of list_todos, Qwen2.5-Coder 0.5B read the list and
 * answered "what's still on the list?" with "The tool has completed its task
 * of adding "flour" to the shopping list." and "anything left on my list?"
 * with "The dentist is done." (both replaced as claims): reading did not
 * help a model that does not report what it read (docs/evals.md).
 */
import type { ModelRequest } from '../../model/engine';
import type { AgentEvent } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import type { Invocation, StepResponse } from '../types';
import { valueWords } from './value-words';

/** How long a reading may be, written out; the rest is cut with an ellipsis. */
const MAX_CHARS = 400;
/** Keys of a result that name a record, not say anything of it. */
const ID_KEY = /^id$|Id$|_id$/;

/** The results of the run's calls that ran, when every one of them is a reading tool's; else none. */
export function readingsOf(
  run: readonly AgentEvent[],
  tools: readonly ToolDeclaration[],
): { name: string; result: unknown }[] {
  const readers = new Set(tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name));
  const ran = run.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      'functionResponse' in part && !part.functionResponse.error
        ? [{ name: part.functionResponse.name, result: part.functionResponse.response }]
        : [],
    ),
  );
  return ran.length && ran.every((call) => readers.has(call.name)) ? ran : [];
}

/** The reply a reading's answer gets: `text` when it names a word of what was read, else the reading itself. */
export function answerWithReading(text: string, readings: readonly { name: string; result: unknown }[]): string {
  const read = valueWords(readings.map(({ result }) => valuesOf(result).join(' ')).join(' '), new Set());
  const said = valueWords(text, new Set());
  if ([...said].some((word) => read.has(word))) return text;
  return readings.map(({ name, result }) => `${name} returned: ${plainText(result)}`).join(' ');
}

/** The strings and numbers of a result, its ids left out: what a reply that reports it would name. */
function valuesOf(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(valuesOf);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, field]) =>
    ID_KEY.test(key) ? [] : valuesOf(field),
  );
}

/**
 * A tool's result as a short line: a list's items one after the other, an object's words (not its ids), a
 * true flag by its name ("done"), a false one left out.
 */
export function plainText(value: unknown): string {
  const text = wordsOf(value).trim();
  const line = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
  return line ? `${line}.` : 'nothing.';
}

function wordsOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(wordsOf).filter(Boolean).join(', ');
  if (typeof value !== 'object') return '';
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) => !ID_KEY.test(key));
  const words = entries
    .filter(([, field]) => typeof field !== 'boolean')
    .map(([, field]) => wordsOf(field))
    .filter(Boolean);
  const flags = entries.filter(([, field]) => field === true).map(([key]) => key);
  return `${words.join(', ')}${flags.length ? ` (${flags.join(', ')})` : ''}`;
}

/** After a run that only read: a final reply that names nothing of what was read gives the reading instead. */
export function answerFromReadings(inv: Invocation, request: ModelRequest, response: StepResponse): void {
  if (!inv.decisions?.claims || response.answeredBy) return;
  const run = inv.history.filter((event) => event.invocationId === inv.invocationId);
  const readings = readingsOf(run, request.tools);
  if (!readings.length) return;
  const answer = answerWithReading(response.text, readings);
  if (answer === response.text) return;
  response.text = answer;
  // Its own words must not come back in later prompts: a small model imitates its replies.
  response.raw = undefined;
}
