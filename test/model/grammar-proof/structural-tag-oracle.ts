/**
 * What a grammar-constrained output holds, read from the structural tag the
 * grammar was compiled from, independently of our readers. It may be naive
 * where the grammar guarantees the shape: free text never contains a
 * trigger; at a trigger one tag's begin string follows, then its content,
 * then its end string. Where the text breaks that shape, or holds a value
 * with no single meaning, the grammar let it through, and this says so.
 *
 * Which calls should run follows issue #12's rules for the free text
 * between calls: a call drafted in reasoning (<think>…</think>, or before a
 * lone </think> the template opened) or written after an end-of-turn token
 * never runs. The markers themselves are the runtime's list (formats/output-vocabulary.ts).
 * And issue 23's: a call quoted in inline code (a backtick span open in the
 * prose before it, closed after it) never runs, nor bare JSON (a trigger
 * that is no tag, Llama 3.2's `{"name": `) inside a tag left open on its line.
 */
import type { StructuralTagFormat, TagFormat } from '../../../src/model/grammar/structural-tag';
import { END_OF_TURN, REASONING_BLOCKS } from '../../../src/model/formats/output-vocabulary';
import { validateJsonSchema } from '../../../src/tools/json-schema-validate';
import { endOfPythonArguments, parseGemma4Object, parsePythonArguments } from './literal-oracle';

export interface ExpectedCall {
  name: string;
  args: unknown;
}

export interface Expected {
  /** Calls written whole. */
  calls: WrittenCall[];
  /** The text ends inside a call. */
  cut: boolean;
  /** …and that call was meant to run (it is not inside reasoning or after the end of the turn). */
  cutWouldRun: boolean;
}

/**
 * `runs`: false for a call drafted inside reasoning (`<think>…</think>`) or written after an
 * end-of-turn token, where issue #12 says no call runs, or quoted in the prose (issue 23),
 * whatever the grammar let the model write.
 */
export interface WrittenCall extends ExpectedCall {
  runs: boolean;
}

/**
 * Turns one tag's content into calls: the tool its content named (a tag every tool shares), the
 * tag's own tool, or (list formats) the calls the content names.
 */
export type CallsOf = (tag: TagFormat, value: unknown, named?: string) => ExpectedCall[];

/** A tool as a shared tag's content names it: the text that names it, then its arguments. */
export interface NamedTool {
  name: string;
  head: string;
  schema: unknown;
}

/**
 * How the arguments inside a tag whose content is an EBNF grammar are written
 * (the format's own syntax, known without our readers); in a tag every tool
 * shares, how the content names each tool first; else the schema of the
 * tag's tool. The schema says which Qwen3.5 parameters are bare text.
 */
export type GrammarSyntaxOf = (tag: TagFormat) => {
  syntax: 'json' | 'xml' | 'python' | 'gemma4';
  schema?: unknown;
  tools?: readonly NamedTool[];
};

export function readStructuralTag(
  text: string,
  format: StructuralTagFormat,
  callsOf: CallsOf,
  syntaxOf: GrammarSyntaxOf,
): Expected {
  if (format.type !== 'triggered_tags') throw new Error(`no oracle for a ${format.type} format at the top`);
  const calls: WrittenCall[] = [];
  let at = 0;
  let freeFrom = 0; // where the free text the trigger search is in began
  let quietUntil = 0; // calls starting before this do not run
  let opened = false;
  let closedByTemplate = false;
  // The prose the person reads before the next call: free text without reasoning or calls.
  let prose = '';
  let proseFrom = 0;
  for (;;) {
    const start = nextTrigger(text, freeFrom, at, format.triggers);
    // A closing tag with no opening one before it: the template opened the reasoning (Qwen3's thinking mode).
    const closes = opened || closedByTemplate ? [] : REASONING_BLOCKS.map((block) => block.close);
    const aside = firstOf(text, at, [...REASONING_BLOCKS.map((block) => block.open), ...closes, ...END_OF_TURN]);
    if (aside !== -1 && (start === -1 || aside < start)) {
      const close = REASONING_BLOCKS.find((b) => text.startsWith(b.close, aside));
      if (close && !opened) {
        closedByTemplate = true;
        for (const call of calls) call.runs = false;
        at = aside + close.close.length;
        prose = '';
        proseFrom = at;
        continue;
      }
      const block = REASONING_BLOCKS.find((b) => text.startsWith(b.open, aside));
      if (block) opened = true;
      const end = block ? text.indexOf(block.close, aside + block.open.length) : -1;
      quietUntil = Math.max(quietUntil, block && end !== -1 ? end + block.close.length : text.length);
      at = aside + 1;
      continue;
    }
    const before = start === -1 ? prose : prose + withoutReasoning(text.slice(Math.max(freeFrom, proseFrom), start));
    const runs = start >= quietUntil && !quotedInProse(before, text, start, format.triggers);
    const done = (cut: boolean): Expected => ({ calls, cut, cutWouldRun: cut && runs });
    if (start === -1) return done(false);
    const tag = format.tags.find((t) => text.startsWith(t.begin, start));
    if (!tag) {
      if (format.tags.some((t) => t.begin.startsWith(text.slice(start)))) return done(true);
      throw new Error(`a trigger opens no declared tag: ${JSON.stringify(text.slice(start, start + 80))}`);
    }
    const content = readContent(text, start + tag.begin.length, tag, syntaxOf);
    if (content === 'cut') return done(true);
    if (text.startsWith(tag.end, content.end)) {
      calls.push(...callsOf(tag, content.value, content.named).map((call) => ({ ...call, runs })));
      prose = before;
      at = Math.max(content.end + tag.end.length, start + 1);
      freeFrom = at;
    } else if (tag.end.startsWith(text.slice(content.end))) return done(true);
    else
      throw new Error(
        `a call is not closed by ${JSON.stringify(tag.end)}: ${JSON.stringify(text.slice(start, content.end + 40))}`,
      );
  }
}

/**
 * Where xgrammar's trigger search finds the next trigger at or after `at`, in
 * free text that began at `from`. It does not search as indexOf does: on a
 * mismatch it starts over from the current character, so a trigger whose
 * start repeats within it is missed where the text repeats it once more
 * ("````tool_code" holds no "```tool_code" for it: checked with
 * Testings.isGrammarAcceptString, which lets "````tool_coden" through).
 */
function nextTrigger(text: string, from: number, at: number, triggers: readonly string[]): number {
  let first = -1;
  for (const trigger of triggers) {
    let matched = 0;
    for (let i = from; i < text.length; i++) {
      if (text[i] === trigger[matched]) matched++;
      else matched = text[i] === trigger[0] ? 1 : 0;
      if (matched === trigger.length) {
        const found = i - trigger.length + 1;
        if (found >= at) {
          if (first === -1 || found < first) first = found;
          break;
        }
        matched = 0;
      }
    }
  }
  return first;
}

function firstOf(text: string, from: number, markers: readonly string[]): number {
  let first = -1;
  for (const marker of markers) {
    const i = text.indexOf(marker, from);
    if (i !== -1 && (first === -1 || i < first)) first = i;
  }
  return first;
}

type Content = { value: unknown; end: number; named?: string } | 'cut';

function readContent(text: string, from: number, tag: TagFormat, syntaxOf: GrammarSyntaxOf): Content {
  const content = tag.content;
  const { tools } = content.type === 'grammar' ? syntaxOf(tag) : {};
  if (tools) return readNamedCall(text, from, tag, syntaxOf, tools);
  switch (content.type) {
    case 'json_schema':
      return readJson(text, from);
    case 'const_string':
      if (!content.value.startsWith(text.slice(from, from + content.value.length))) throw new Error('const differs');
      return text.length < from + content.value.length ? 'cut' : { value: {}, end: from + content.value.length };
    case 'qwen_xml_parameter':
      return readXmlParameters(text, from, tag.end, content.json_schema as Schema);
    case 'grammar':
      return readArguments(text, from, tag, syntaxOf(tag).syntax, syntaxOf(tag).schema);
    default:
      throw new Error(`no oracle for ${content.type} content`);
  }
}

/** A shared tag's content: the head of one declared tool (the longest that matches), then its arguments. */
function readNamedCall(
  text: string,
  from: number,
  tag: TagFormat,
  syntaxOf: GrammarSyntaxOf,
  tools: readonly NamedTool[],
): Content {
  let named: NamedTool | undefined;
  for (const tool of tools)
    if (text.startsWith(tool.head, from) && (!named || tool.head.length > named.head.length)) named = tool;
  if (!named) {
    const rest = text.slice(from);
    if (tools.some((tool) => tool.head.startsWith(rest))) return 'cut';
    throw new Error(`a call names no declared tool: ${JSON.stringify(text.slice(from, from + 80))}`);
  }
  const args = readArguments(text, from + named.head.length, tag, syntaxOf(tag).syntax, named.schema);
  return args === 'cut' ? 'cut' : { ...args, named: named.name };
}

function readArguments(
  text: string,
  from: number,
  tag: TagFormat,
  syntax: 'json' | 'xml' | 'python' | 'gemma4',
  schema: unknown,
): Content {
  if (syntax === 'json') return readJson(text, from);
  if (syntax === 'xml') return readXmlParameters(text, from, tag.end, schema as Schema);
  if (syntax === 'gemma4') {
    const parsed = parseGemma4Object(text, from);
    return parsed === 'cut' ? 'cut' : parsed;
  }
  const end = endOfPythonArguments(text, from);
  if (end === -1) return 'cut';
  return { value: withoutPythonDefaults(parsePythonArguments(text.slice(from, end)), schema), end };
}

/**
 * Python's rule: a keyword argument passed as None is its default, and Gemma's prompt shows every optional
 * parameter with `= None`. So the call that runs leaves it out, unless the tool requires it or takes null.
 */
function withoutPythonDefaults(args: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  const object = (schema ?? {}) as { required?: unknown; properties?: Record<string, unknown> };
  const required = Array.isArray(object.required) ? object.required : [];
  return Object.fromEntries(
    Object.entries(args).filter(
      ([key, value]) =>
        value !== null ||
        required.includes(key) ||
        !(key in (object.properties ?? {})) ||
        validateJsonSchema(object.properties![key] as never, null).ok,
    ),
  );
}

function readJson(text: string, from: number): Content {
  const start = skipSpace(text, from);
  const end = endOfJsonValue(text, start);
  if (end === -1) return 'cut';
  return { value: parseJson(text.slice(start, end)), end };
}

type Schema = { properties?: Record<string, { type?: unknown }> };

/**
 * xgrammar's qwen_xml_parameter (and our XML grammar): `<parameter=NAME>VALUE</parameter>` in
 * schema order, with any [ \n\t] around each; a string is the bare text between (that padding is not part of it), any
 * other value is JSON.
 */
function readXmlParameters(text: string, from: number, end: string, schema: Schema): Content {
  const args: Record<string, unknown> = {};
  let at = from;
  for (;;) {
    if (text.startsWith(end, at)) return { value: args, end: at };
    const next = skipSpace(text, at);
    // A shared tag's end follows the padding after the last parameter (its grammar writes the newline).
    if (text.startsWith(end, next)) return { value: args, end: next };
    if (next >= text.length || end.startsWith(text.slice(at)) || end.startsWith(text.slice(next))) return 'cut';
    const open = /<parameter=([A-Za-z_][A-Za-z0-9_]*)>/y;
    open.lastIndex = next;
    const match = open.exec(text);
    if (!match) {
      if (/^<(p(a(r(a(m(e(t(e(r(=[A-Za-z0-9_]*)?)?)?)?)?)?)?)?)?)?$/.test(text.slice(next))) return 'cut';
      throw new Error(`not a parameter: ${JSON.stringify(text.slice(next, next + 40))}`);
    }
    const isString = schema.properties?.[match[1]]?.type === 'string';
    // A JSON value may hold "</parameter>" in a string: find its end by scanning it.
    const valueStart = skipSpace(text, open.lastIndex);
    const valueEnd = isString || !'{['.includes(text[valueStart] ?? '') ? valueStart : endOfJsonValue(text, valueStart);
    if (valueEnd === -1) return 'cut';
    const close = text.indexOf('</parameter>', valueEnd);
    if (close === -1) return 'cut';
    const raw = text.slice(open.lastIndex, close).replace(/^[ \n\t]+|[ \n\t]+$/g, '');
    args[match[1]] = isString ? raw : parseJson(raw);
    at = close + '</parameter>'.length;
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at++;
  return at;
}

/** Index just past the JSON value starting at `start`, or -1 when the text ends first. */
export function endOfJsonValue(text: string, start: number): number {
  if (start >= text.length) return -1;
  if (text[start] !== '{' && text[start] !== '[')
    throw new Error(`expected a JSON object or list at ${JSON.stringify(text.slice(start, start + 40))}`);
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') if (--depth === 0) return i + 1;
  }
  return -1;
}

/**
 * JSON.parse, except that a raw control character inside a string (xgrammar admits them in strings
 * with a length bound) means itself.
 */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(
      body.replace(/"(?:[^"\\]|\\.)*"/gs, (string) =>
        string.replace(/[\u0000-\u001f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`),
      ),
    );
  } catch (error) {
    throw new Error(`a call's body is not JSON (${(error as Error).message}): ${JSON.stringify(body)}`);
  }
}

/** Free text without the reasoning blocks in it (the person never reads those as the answer). */
function withoutReasoning(free: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const opens = REASONING_BLOCKS.map((block) => ({ block, at: free.indexOf(block.open, i) })).filter(
      (o) => o.at !== -1,
    );
    if (!opens.length) return out + free.slice(i);
    const first = opens.reduce((a, b) => (b.at < a.at ? b : a));
    out += free.slice(i, first.at);
    const close = free.indexOf(first.block.close, first.at + first.block.open.length);
    if (close === -1) return out;
    i = close + first.block.close.length;
  }
}

/**
 * Issue 23: the call at `start` is quoted. Either an inline code span is open in the prose before
 * it (backtick runs pair up by length; a run of three or more is a fence, which no span crosses)
 * and a run of that length follows, or the trigger is bare JSON and a tag opened on its line
 * (`<` and a name) has no `>` yet.
 */
function quotedInProse(prose: string, text: string, start: number, triggers: readonly string[]): boolean {
  let open = 0;
  for (const [run] of prose.matchAll(/`+/g)) {
    if (run.length >= 3) open = 0;
    else if (open === 0) open = run.length;
    else if (open === run.length) open = 0;
  }
  if (open > 0 && new RegExp(`(?<!\`)\`{${open}}(?!\`)`).test(text.slice(start))) return true;
  const bare = triggers.some((trigger) => trigger.startsWith('{'));
  return bare && /<[A-Za-z_/][^>\n]*$/.test(prose);
}
