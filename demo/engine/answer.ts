// What the stand-in says once the page's tools have answered: read from the results in the
// history, as a model would, so a refusal, a failure or a reload is said as it happened.
import type { ChatMessage, ModelToolCall } from '../../src/index';

export interface ToolOutcome {
  call: ModelToolCall;
  /** The tool's answer as the model reads it; an error starts with "Error: ". */
  content: string;
}

/** The calls of the last model turn, each with its answer (from the tool messages after it). */
export function lastOutcomes(messages: ChatMessage[]): ToolOutcome[] {
  const turn = messages.findLastIndex((message) => message.role === 'assistant' && message.toolCalls?.length);
  if (turn < 0) return [];
  const calls = (messages[turn] as Extract<ChatMessage, { role: 'assistant' }>).toolCalls!;
  const answers = new Map<string, string>();
  for (const message of messages.slice(turn + 1))
    if (message.role === 'tool') answers.set(message.toolCallId, message.content);
  return calls.map((call) => ({ call, content: answers.get(call.id!) ?? 'Error: no answer' }));
}

const quoted = (text: unknown) => `“${String(text)}”`;
const list = (values: unknown[]) =>
  values.length <= 1
    ? values.map(quoted).join('')
    : `${values.slice(0, -1).map(quoted).join(', ')} and ${quoted(values.at(-1))}`;

function parsed(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/** Why a call did not run, in a person's words. */
function failure({ call, content }: ToolOutcome): string {
  // The page's tool errors arrive as 'Tool "name" failed: <its message>'.
  const error = content.replace(/^Error:\s*/, '').replace(/^Tool "[^"]*" failed:\s*/, '');
  if (/rejected|not allow|denied/i.test(error))
    return `I did not run ${call.name}: you chose not to allow it, so nothing changed.`;
  if (/^interrupted$/i.test(error)) return `${call.name} was not run because the page was reloaded.`;
  if (call.name === 'complete_todo' && /^No to-do matches/.test(error)) {
    // findItem's message: 'No to-do matches "coffee". The to-dos are: Buy milk, Call Ana.' (or 'no to-dos yet').
    const existing = /The to-dos are: (.*)\.$/.exec(error)?.[1];
    return `I could not find a to-do matching ${quoted((call.args as { text: string }).text)}. ${!existing || existing === 'no to-dos yet' ? 'Your list is empty.' : `Your list has: ${existing}.`}`;
  }
  return `${call.name} did not work: ${error}`;
}

export function answerFrom(outcomes: ToolOutcome[]): string {
  const failed = outcomes.filter((outcome) => outcome.content.startsWith('Error:'));
  const done = outcomes.filter((outcome) => !outcome.content.startsWith('Error:'));
  const said: string[] = [];
  const byName = (name: string) => done.filter((outcome) => outcome.call.name === name);
  const argsOf = (name: string, key: string) =>
    byName(name).map((outcome) => (outcome.call.args as Record<string, unknown>)[key]);

  if (byName('add_todo').length) said.push(`I added ${list(argsOf('add_todo', 'text'))} to your list.`);
  if (byName('complete_todo').length)
    said.push(
      `Marked ${list(byName('complete_todo').map((outcome) => (parsed(outcome.content) as { done: string }).done))} as done.`,
    );
  for (const outcome of byName('list_todos')) {
    const todos = parsed(outcome.content) as { text: string; done: boolean }[];
    const open = todos.filter((todo) => !todo.done).map((todo) => todo.text);
    const finished = todos.filter((todo) => todo.done).map((todo) => todo.text);
    if (!todos.length) said.push('Your list is empty.');
    else
      said.push(
        `${open.length ? `Open: ${list(open)}.` : 'Nothing is open.'}${finished.length ? ` Done: ${list(finished)}.` : ''}`,
      );
  }
  for (const outcome of byName('clear_todos')) {
    const { cleared } = parsed(outcome.content) as { cleared: number };
    said.push(
      cleared
        ? `Done: I removed ${cleared === 1 ? 'the one to-do' : `all ${cleared} to-dos`}; the list is empty.`
        : 'The list was already empty.',
    );
  }
  if (byName('add_note').length) said.push(`Your note ${list(argsOf('add_note', 'title'))} is on the page.`);
  for (const outcome of byName('sort_table')) {
    const { column, descending } = outcome.call.args as { column: string; descending?: boolean };
    const { order } = parsed(outcome.content) as { order: string[] };
    const direction =
      column === 'name' ? (descending ? 'Z to A' : 'A to Z') : descending ? 'highest first' : 'lowest first';
    said.push(`Sorted the products by ${column}, ${direction}: ${order.join(', ')}.`);
  }
  if (byName('fill_form').length)
    said.push(
      `The contact form is filled in for ${list(argsOf('fill_form', 'name'))}. Check it and send it yourself; I do not send anything.`,
    );
  said.push(...failed.map(failure));
  return said.join(' ') || 'Done.';
}
