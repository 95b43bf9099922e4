/**
 * A step's structural tag (what web-llm hands to xgrammar; model/formats) as
 * llama.cpp's GBNF, for the wllama engine. The same language, so that a call
 * llama.cpp lets through is one xgrammar would have let through:
 *
 * - triggered tags: free text until a trigger, then one of the tags, then
 *   more tags or at most a sentence, and the end (as llama.cpp's own
 *   tool-call grammars end a turn at its calls). Lazy (the default), the grammar
 *   starts at the trigger: llama.cpp decodes freely until the trigger appears
 *   and constrains from there (`grammar_lazy`, `grammar_triggers`), so the
 *   grammar's root is a tag followed by the rest. `at_least_one` (a required
 *   call) is never lazy: the output opens with a tag, as xgrammar has it.
 *   `full` writes the free text before the first trigger into the grammar too
 *   (text-until.ts), for a step that must be constrained from its first token.
 * - a tag: its begin, its content, its end; `any_text` content is any text up
 *   to the end.
 * - contents: EBNF (our argument grammars, read-ebnf.ts), a JSON Schema
 *   (written by our own argument grammar), a regular expression, a constant.
 *
 * Triggers and the markup that may be one special token (`<tool_call>`,
 * `[TOOL_CALLS]`, `<|"|>`) are listed as preserved tokens: llama.cpp renders
 * such a token as its text only when it is preserved, and refuses a trigger
 * that is one token but not preserved. Listing a string that is several
 * tokens in this vocabulary is harmless; llama.cpp skips it.
 */
import { charSet, MAX_CODE_POINT, subtract, type CharSet } from '../grammar/char-set';
import { argumentsGrammar } from '../grammar/ebnf-arguments';
import { parsePattern, type Regex } from '../grammar/regex-pattern';
import type { StructuralTagFormat, TagFormat } from '../grammar/structural-tag';
import { choice, literal, ref, renamed, sequence, type GrammarNode, type GrammarRules } from './grammar-tree';
import { readEbnf } from './read-ebnf';
import { textUntil, type TextUntilRules } from './text-until';
import { gbnfName, writeGbnf } from './write-gbnf';

export interface GbnfGrammar {
  grammar: string;
  /** Applied from a trigger on; before it, decoding is free. */
  lazy: boolean;
  /** llama.cpp's grammar_triggers, as words. */
  triggers: string[];
  preservedTokens: string[];
}

export class GbnfUnsupported extends Error {}

/** Any text of whole characters: what a step without tools continues under after the model wrote bytes that are not UTF-8. */
export const ANY_TEXT_GBNF = 'root ::= [\\x01-\\U0010ffff]*';

/**
 * What an answer in words opens with: a letter or a digit (any script). Not JSON, a list, a quote, a code
 * fence (Qwen2.5-Coder 0.5B, kept from bare JSON, wrote its call in a ```json fence), markup or white space.
 */
const WORDS = charSet([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0xc0, MAX_CODE_POINT]);

/** A Markdown code fence: it opens code as often as a call (```python, ```json). */
const CODE_FENCE = '```';
/** White space: a tab, a newline, a space. */
const SPACE = charSet([0x09, 0x0a], [0x20, 0x20]);
/** Between two calls: white space, or a comma (the 0.5B's bare calls come as `{…},\n{…}`). */
const SEPARATOR = charSet([0x09, 0x0a], [0x20, 0x20], ',');
/**
 * The most characters of words a turn writes after its calls: a sentence. A small model otherwise goes on
 * explaining the call it just made (what its results will say) until the token limit cuts the turn, and a cut
 * turn's calls never run (readers/read-model-output.ts). Not none: made to choose between another call and the
 * end, Qwen2.5-Coder 0.5B repeated its call.
 */
const WORDS_AFTER_CALLS = 160;

/** An answer in words: what a step of a run with tools that may call none of them writes. */
export const WORDS_GBNF = writeGbnf(
  new Map([
    [
      'root',
      sequence(
        { kind: 'chars', set: WORDS },
        { kind: 'repeat', item: { kind: 'chars', set: [[1, MAX_CODE_POINT]] }, min: 0, max: Infinity },
      ),
    ],
  ]),
);

export interface GbnfOptions {
  /** Constrain from the first token (no lazy trigger). */
  full?: boolean;
  /**
   * With `full`: the output so far, which the grammar continues (a step that goes on after llama.cpp
   * refused a lazy trigger's token). It must hold no complete trigger.
   */
  after?: string;
  /**
   * With `full`, triggered tags: the output opens with a call, or with words: not with JSON, a bracket,
   * white space or the end. A small instruct model otherwise answers with a call written as bare JSON
   * (outside the tag, so unconstrained), or with a tool's JSON result echoed back, or with nothing.
   */
  wordsOrCall?: boolean;
}

export function structuralTagToGbnf(format: StructuralTagFormat, options: GbnfOptions = {}): GbnfGrammar {
  const builder = new GbnfBuilder();
  const lazy = !options.full && format.type === 'triggered_tags' && !format.at_least_one;
  let root: GrammarNode;
  if (format.type === 'triggered_tags') {
    const tags = builder.triggeredTags(format);
    if (lazy || format.at_least_one) root = tags.fromTag;
    else if (options.wordsOrCall && !options.after) {
      // A first character that opens no trigger leaves the watch for triggers at its start.
      const opening = subtract(WORDS, openers(format.triggers));
      root = choice(
        tags.fromCallMarkup,
        sequence({ kind: 'chars', set: opening }, ref(tags.fromText.start)),
        ...tags.fromFence,
      );
    } else {
      const rest = tags.fromText.after(options.after ?? '');
      if (rest === undefined) throw new GbnfUnsupported('the output to continue already holds a trigger');
      root = ref(rest);
    }
  } else root = builder.content(format);
  builder.setRoot(root);
  const triggers = format.type === 'triggered_tags' ? [...format.triggers] : [];
  return {
    grammar: builder.write(),
    lazy,
    triggers: lazy ? triggers : [],
    preservedTokens: preservedTokens(builder.literals, triggers),
  };
}

/** The characters a trigger opens with: words that hold none never start a call that would not be held. */
function openers(triggers: readonly string[]): CharSet {
  return charSet(...triggers.map((trigger) => trigger[0]));
}

/** Markup that looks like one special token: `<…>`, `<|…|>`, `[UPPER_CASE]`. */
const SPECIAL = /<\|?[^<>\s|]{0,24}\|?>|<\|"\|>|\[[A-Z_]{2,24}\]/g;

function preservedTokens(literals: readonly string[], triggers: readonly string[]): string[] {
  const found = new Set(triggers);
  for (const text of literals) for (const [token] of text.matchAll(SPECIAL)) found.add(token);
  return [...found];
}

class GbnfBuilder {
  private readonly rules: GrammarRules = new Map([['root', literal('')]]);
  private count = 0;
  /** Every literal written, for the preserved tokens. */
  readonly literals: string[] = [];

  setRoot(node: GrammarNode): void {
    this.rules.set('root', node);
  }

  write(): string {
    return writeGbnf(this.rules);
  }

  /** A fresh rule name with a readable stem. */
  private fresh(stem: string): string {
    return `${gbnfName(stem)}-${this.count++}`;
  }

  private literal(text: string): GrammarNode {
    this.literals.push(text);
    return literal(text);
  }

  /**
   * The tags after a trigger, then free text with more tags: `fromTag` opens with a tag (the lazy
   * root, or a required call), `fromText` opens with free text (the whole output). A turn that may
   * call or answer opens with `fromCallMarkup`, a tag that is not a code fence, or with `fromFence`
   * where the family has other markup too: ``` then the text's watch for triggers, so ```json that goes
   * on as a call is held as one and any other fence (```python) is code. A fenced tag of its own would
   * force every fence into a call. (Gemma's ```tool_code, its only call markup, is in `fromCallMarkup`
   * and `fromFence` is empty.) Qwen2.5-Coder 1.5B, whose first words are ```json, otherwise wrote a
   * paragraph first, then its call.
   */
  triggeredTags(format: Extract<StructuralTagFormat, { type: 'triggered_tags' }>): {
    fromTag: GrammarNode;
    fromText: TextUntilRules;
    fromCallMarkup: GrammarNode;
    fromFence: GrammarNode[];
  } {
    const { triggers, tags } = format;
    const tagRules = tags.map((tag) => {
      const trigger = [...triggers].sort((a, b) => b.length - a.length).find((t) => tag.begin.startsWith(t));
      if (trigger === undefined)
        throw new GbnfUnsupported(`the tag ${JSON.stringify(tag.begin)} starts with no trigger`);
      const body = this.tagBody(tag);
      const name = this.fresh('tag');
      this.rules.set(name, sequence(this.literal(tag.begin), body));
      // The same tag once the free text has written its trigger.
      const rest = this.fresh('tag-rest');
      this.rules.set(rest, sequence(literal(tag.begin.slice(trigger.length)), body));
      return { trigger, name, rest, begin: tag.begin };
    });
    const text = this.fresh('text');
    const anyTag = this.fresh('tags');
    this.rules.set(anyTag, choice(...tagRules.map((tag) => ref(tag.name))));
    const afterTag = format.stop_after_first ? undefined : ref(this.moreCalls(anyTag, triggers));
    const fromText = textUntil(
      {
        stops: triggers,
        mayEnd: true,
        after: (index) => {
          const rests = tagRules.filter((tag) => tag.trigger === triggers[index]).map((tag) => ref(tag.rest));
          return sequence(choice(...rests), ...(afterTag ? [afterTag] : []));
        },
      },
      (state) => (state === 0 ? text : `${text}-${state}`),
      (name, body) => this.rules.set(name, body),
    );
    const fromTag = sequence(ref(anyTag), ...(afterTag ? [afterTag] : []));
    const markup = tagRules.filter((tag) => !tag.begin.startsWith(CODE_FENCE)).map((tag) => ref(tag.name));
    const fromCallMarkup = markup.length ? sequence(choice(...markup), ...(afterTag ? [afterTag] : [])) : fromTag;
    const fenced = triggers.some((trigger) => trigger.startsWith(CODE_FENCE));
    const fenceRest = markup.length && fenced ? fromText.after(CODE_FENCE) : undefined;
    const fromFence = fenceRest === undefined ? [] : [sequence(literal(CODE_FENCE), ref(fenceRest))];
    return { fromTag, fromText, fromCallMarkup, fromFence };
  }

  /**
   * After a call: another call, or at most a sentence of words, then the end. The words hold no character
   * that opens a trigger: whatever opens a call after them would not be held.
   */
  private moreCalls(anyTag: string, triggers: readonly string[]): string {
    const name = this.fresh('after-call');
    const gap = (set: CharSet, max: number): GrammarNode => ({
      kind: 'repeat',
      item: { kind: 'chars', set },
      min: 0,
      max,
    });
    const opening = openers(triggers);
    const words = sequence(
      { kind: 'chars', set: subtract(WORDS, opening) },
      {
        kind: 'repeat',
        item: { kind: 'chars', set: subtract([[1, MAX_CODE_POINT]], opening) },
        min: 0,
        max: WORDS_AFTER_CALLS - 1,
      },
    );
    this.rules.set(
      name,
      choice(
        sequence(gap(SEPARATOR, 3), ref(anyTag), ref(name)),
        sequence(gap(SPACE, 2), { kind: 'repeat', item: words, min: 0, max: 1 }),
      ),
    );
    return name;
  }

  private tag(tag: TagFormat): GrammarNode {
    return sequence(this.literal(tag.begin), this.tagBody(tag));
  }

  /** A tag's content and end, as one rule (written once, whichever way the tag is entered). */
  private tagBody(tag: TagFormat): GrammarNode {
    const name = this.fresh('body');
    this.literals.push(tag.end);
    if (tag.content.type === 'any_text') {
      textUntil(
        { stops: [tag.end], mayEnd: false, after: () => undefined },
        (state) => (state === 0 ? name : `${name}-${state}`),
        (rule, body) => this.rules.set(rule, body),
      );
    } else this.rules.set(name, sequence(this.content(tag.content), literal(tag.end)));
    return ref(name);
  }

  content(format: StructuralTagFormat): GrammarNode {
    switch (format.type) {
      case 'const_string':
        return this.literal(format.value);
      case 'grammar':
        return this.ebnf(format.grammar);
      case 'json_schema':
        return this.ebnf(argumentsGrammar(format.json_schema as never, 'json').grammar);
      case 'regex':
        return regexNode(parsePattern(`^(?:${format.pattern})$`));
      case 'sequence':
        return sequence(...format.elements.map((element) => this.content(element)));
      case 'or':
        return choice(...format.elements.map((element) => this.content(element)));
      case 'tag':
        return this.tag(format);
      case 'triggered_tags': {
        const tags = this.triggeredTags(format);
        return format.at_least_one ? tags.fromTag : ref(tags.fromText.start);
      }
      case 'any_text':
        return { kind: 'repeat', item: { kind: 'chars', set: [[0, 0x10ffff]] }, min: 0, max: Infinity };
      default:
        throw new GbnfUnsupported(`the structural tag content "${format.type}" has no GBNF translation`);
    }
  }

  /** An EBNF grammar's rules, renamed apart from every other grammar's; its root as a reference. */
  private ebnf(text: string): GrammarNode {
    const rules = readEbnf(text);
    const prefix = this.fresh('g');
    const rename = (name: string) => `${prefix}-${gbnfName(name)}`;
    for (const [name, body] of rules) {
      this.rules.set(rename(name), renamed(body, rename));
      collectLiterals(body, this.literals);
    }
    return ref(rename('root'));
  }
}

function collectLiterals(node: GrammarNode, into: string[]): void {
  if (node.kind === 'literal') into.push(node.text);
  else if (node.kind === 'sequence') node.items.forEach((item) => collectLiterals(item, into));
  else if (node.kind === 'choice') node.options.forEach((option) => collectLiterals(option, into));
  else if (node.kind === 'repeat') collectLiterals(node.item, into);
}

function regexNode(regex: Regex): GrammarNode {
  switch (regex.kind) {
    case 'chars':
      return { kind: 'chars', set: regex.set };
    case 'sequence':
      return sequence(...regex.items.map(regexNode));
    case 'choice':
      return choice(...regex.options.map(regexNode));
    case 'repeat':
      return { kind: 'repeat', item: regexNode(regex.item), min: regex.min, max: regex.max };
  }
}
