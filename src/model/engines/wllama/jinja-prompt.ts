/**
 * A step's prompt written by the model's own chat template (the GGUF's
 * `tokenizer.chat_template`), rendered by a real Jinja engine
 * (@huggingface/jinja, the one transformers.js renders templates with):
 * the system text, the tools in the template's own tools section, the turns,
 * the calls and the tool results exactly as the model was trained on them.
 * Small models are very sensitive to this: in our own markup the
 * instruction-tuned Qwen2.5-Coder 0.5B wrote bare JSON, copied schema keys
 * and echoed results.
 *
 * A turn the model wrote goes back as it wrote it (its raw output as the
 * turn's content), so each step's prompt extends the last one plus the
 * model's output, and llama.cpp's prefix cache holds (checked at load, and
 * measured by the tests). Templates that know no tools, or no tool role
 * (they raise on it), get the family's tool section in the system text and
 * the results as a user turn, as our markup writes them; and since such
 * templates allow only alternating turns (Gemma's raise "Conversation roles
 * must alternate"), results next to a user turn share it (alternating-turns.ts).
 *
 * The template comes with the file: it is rendered within bounds
 * (chat-template.ts), and what it is given that the model did not write is
 * escaped with the model's own special tokens (escape.ts, escape-parts.ts).
 */
import type { ToolDeclaration } from '../../../tools/declaration';
import { AgentError } from '../../../errors';
import type { ChatMessage } from '../../engine';
import { escapeUntrusted, type Escape } from '../../escape';
import { escapeCall, escapeValue, shownTools } from '../../escape-parts';
import type { ToolFormat, ToolResultText } from '../../formats/tool-format';
import { functionEntry } from '../../grammar/grammar-schema';
import { templateDate } from '../../template-date';
import type { PromptInput, PromptWriter } from './wllama-prompt';
import { withoutEndOfTurn } from '../without-end-of-turn';
import { alternatingTurns } from '../alternating-turns';
import { boundedTemplate, isTemplateRefusal } from './chat-template';

/** How a template takes tools: in its own section and tool role ('own'), or not at all ('folded': ours). */
export type TemplateTools = 'own' | 'folded';

/** Where the nudge to answer goes: a system turn of its own, or after the results in their turn. */
type NudgeAt = 'turn' | 'results';

interface Layout {
  tools: TemplateTools;
  nudge: NudgeAt;
}

/** Tried in order at load: the first the template writes as we need it is the one used. */
const LAYOUTS: readonly Layout[] = [
  { tools: 'own', nudge: 'turn' },
  { tools: 'own', nudge: 'results' },
  { tools: 'folded', nudge: 'results' },
];

interface JinjaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: unknown } }[];
  name?: string;
  tool_call_id?: string;
}

export interface JinjaPrompt extends PromptWriter {
  readonly tools: TemplateTools;
}

export interface JinjaPromptOptions {
  /** The date the template prints; default: now (then fixed for the writer's life). */
  now?: Date;
  /** How text the model did not write is escaped: with its tokenizer's special tokens (escaperFor). */
  escape?: Escape;
}

/**
 * The template as a prompt writer, or an error that says why it cannot be used (the engine then writes
 * the family's markup), or a refusal of the template itself (chat-template.ts: the file is refused).
 * `stops` are the markup's turn openers, which end a turn as text.
 */
export function jinjaPrompt(
  source: string,
  format: ToolFormat,
  stops: string[],
  { now = new Date(), escape = escapeUntrusted }: JinjaPromptOptions = {},
): JinjaPrompt {
  const template = boundedTemplate(source, now);
  const globals = {
    add_generation_prompt: true,
    // llama.cpp adds the BOS token itself where the model asks for one; written here too, it would be doubled.
    bos_token: '',
    eos_token: '',
    // The date a template may print (Llama 3.2's does), fixed for the engine's life: a prompt that changed at
    // midnight would lose llama.cpp's cache. (Templates read date_string before they call strftime_now.)
    date_string: templateDate(now),
  };
  const render = (layout: Layout, input: PromptInput) =>
    template.render({
      ...globals,
      messages: messagesFor(layout, input, format, escape),
      ...(layout.tools === 'own' &&
        input.tools.length && { tools: shownTools(input.tools, escape).map(functionEntry) }),
    });
  const layout = LAYOUTS.find((candidate) => probe((input) => render(candidate, input), candidate.tools === 'own'));
  if (!layout)
    throw new AgentError(
      'model-invalid',
      "The model's chat template cannot write a conversation with tool results in it, even as user turns.",
    );
  return { kind: 'template', stops, tools: layout.tools, write: (input) => render(layout, input) };
}

/**
 * What a small model reads after its tools' results when the step must answer in words. Qwen2.5-Coder 0.5B,
 * left alone there, echoed the results' JSON, or copied a tool's description ("Mark an item of the to-do
 * list as done, by its id."); told this (after its results, in a system turn of its own template), it said
 * what it did: "The tool successfully added the item "buy milk" to the to-do list."
 */
export const ANSWER_NOW = 'The tool has done its work. Tell the user in one short sentence what you did or found.';

/** The conversation in OpenAI's message shape, the one chat templates are written for. */
function messagesFor(
  { tools, nudge }: Layout,
  { system, tools: declared, messages, answers }: PromptInput,
  format: ToolFormat,
  escape: Escape,
) {
  const out: JinjaMessage[] = [];
  const section = tools === 'folded' && declared.length ? format.describeTools(shownTools(declared, escape)) : '';
  const systemText = [system, section].filter(Boolean).join('\n\n');
  if (systemText) out.push({ role: 'system', content: systemText });
  let results: ToolResultText[] = [];
  const flush = (nudged = false) => {
    const text = nudged && nudge === 'results' ? `\n\n${ANSWER_NOW}` : '';
    if (results.length) out.push({ role: 'user', content: format.writeResults(results) + text });
    else if (text) out.at(-1)!.content += text;
    results = [];
  };
  const asked = new Map<string, string>();
  messages.forEach((message, index) => {
    if (message.role === 'system') return;
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? [])
        if (call.id) asked.set(call.id, callLine(call.name, call.args, escape));
    if (message.role === 'tool') {
      // With the call it answers, so that the reply can say what was done: add_todo({"text":"milk"}) returned: {"id":"1"}.
      const content = `${asked.get(message.toolCallId) ?? escape(message.name)} returned: ${escape(message.content)}`;
      const [callId, name] = [escape(message.toolCallId), escape(message.name)];
      if (tools === 'folded') results.push({ callId, name, content });
      else out.push({ role: 'tool', content, name, tool_call_id: callId });
      const next = messages[index + 1];
      // Only the step that answers now reads the nudge. Kept in later steps (so that each prompt extended the
      // last), Qwen2.5-Coder 0.5B answered later requests in words where it should have called, or with the
      // nudge's own words: in one 10-request conversation (llama.cpp, this prompt, grammar and reader) it called
      // on 0 of the 8 requests that needed a call, against 5 with the nudge left out of the history. A later
      // request pays for it by reading the reply's few tokens again (llama.cpp reads on from where prompts part).
      if (!next && answers) {
        flush(true);
        if (nudge === 'turn') out.push({ role: 'system', content: ANSWER_NOW });
      }
      return;
    }
    flush();
    if (message.role === 'user') out.push({ role: 'user', content: escape(message.content) });
    else out.push(assistantMessage(message, tools, format, escape));
  });
  flush();
  // A template with no tool role reads results as a user turn, and allows no two user turns in a row.
  return tools === 'folded' ? alternatingTurns(out) : out;
}

/**
 * A call as the line before its result shows it; long arguments are cut (the model wrote them itself, above). Its
 * arguments are escaped as values, as where the call is written back, and the line as text (a bare call's shape).
 */
function callLine(name: string, args: unknown, escape: Escape): string {
  const json = JSON.stringify(escapeValue(args ?? {}, escape));
  return `${escape(name)}(${escape(json.length > 200 ? `${json.slice(0, 200)}…` : json)})`;
}

/**
 * The model's own words as it wrote them (so the prompt extends the last); else its text and calls, escaped, as the
 * template writes them.
 */
function assistantMessage(
  message: Extract<ChatMessage, { role: 'assistant' }>,
  tools: TemplateTools,
  format: ToolFormat,
  escape: Escape,
): JinjaMessage {
  if (message.raw !== undefined) return { role: 'assistant', content: withoutEndOfTurn(message.raw) };
  const text = escape(message.content);
  const calls = (message.toolCalls ?? []).map((call) => escapeCall(call, escape));
  if (!calls.length) return { role: 'assistant', content: text };
  if (tools === 'folded') return { role: 'assistant', content: format.writeTurn(text, calls) };
  return {
    role: 'assistant',
    content: text,
    tool_calls: calls.map((call, index) => ({
      id: call.id ?? `call_${index}`,
      type: 'function',
      function: { name: call.name, arguments: call.args ?? {} },
    })),
  };
}

const PROBE_TOOL: ToolDeclaration = {
  name: 'probe_lookup',
  description: 'Looks a word up.',
  parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  annotations: {},
  needsApproval: false,
  returnDirect: false,
  longRunning: false,
  timeoutMs: 1000,
  source: 'builtin',
};

/**
 * Whether the template writes a conversation with a call and its result as we need it: the tools (when
 * `ownTools`), the result, and each step's prompt extending the last one plus the model's output.
 */
function probe(render: (input: PromptInput) => string, ownTools = true): boolean {
  const first: PromptInput = {
    system: 'PROBE-SYSTEM',
    tools: [PROBE_TOOL],
    messages: [{ role: 'user', content: 'PROBE-QUESTION' }],
  };
  const output = 'PROBE-OUTPUT';
  const second: PromptInput = {
    ...first,
    messages: [
      ...first.messages,
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'probe-1', name: PROBE_TOOL.name, args: { word: 'x' } }],
        raw: output,
      },
      { role: 'tool', content: 'PROBE-RESULT', toolCallId: 'probe-1', name: PROBE_TOOL.name },
    ],
    answers: true,
  };
  try {
    const before = render(first);
    const after = render(second);
    return (
      before.includes('PROBE-SYSTEM') &&
      (!ownTools || before.includes(PROBE_TOOL.name)) &&
      after.includes('PROBE-RESULT') &&
      after.includes(ANSWER_NOW) &&
      after.startsWith(before + output)
    );
  } catch (error) {
    if (isTemplateRefusal(error)) throw error;
    return false; // raise_exception: e.g. a template that allows only alternating user and assistant turns
  }
}
