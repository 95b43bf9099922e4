/**
 * The tags of a format that writes one call per tag: ONE tag for every tool
 * of the step, whose begin is what all its calls start with (`<tool_call>\n
 * {"name": `) and whose content is one grammar holding each tool as an
 * alternative, its name as the format writes it and then its arguments.
 *
 * Why one: web-llm compiles the step's grammar before the first token, and
 * xgrammar works every rule of it over the whole vocabulary. A tag per tool
 * carries a grammar per tool, each with its own string, number and
 * whitespace rules, so the wait grew with the number of tools; in one grammar
 * (ebnf-arguments.ts, one GrammarBuilder) those rules are written once, as
 * the list formats' are (call-list.ts).
 *
 * A relaxed tool (a schema no grammar holds) keeps a tag of its own that
 * names it in its begin, with the format's free content: constrained by its
 * name only, as before.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { oneCallGrammar, type CallAlternative } from './ebnf-arguments';
import { argumentsSupport } from './grammar-support';
import { freeArgumentsContent } from './grammar-schema';
import type { ArgumentSyntax } from './string-syntax';
import { tag, type TagFormat } from './structural-tag';
import type { GrammarStep } from './grammar-step';

export interface SharedCallTag {
  /** What every call's text starts with, the trigger first. */
  begin: string;
  /** What every call's text ends with. */
  end: string;
  syntax: ArgumentSyntax;
  /** How one tool is written between `begin` and `end`. */
  call(tool: ToolDeclaration): CallAlternative;
  /**
   * The tag of a tool constrained by its name only; by default `begin`, the
   * tool's head, any arguments in the syntax, and `end`.
   */
  relaxed?(tool: ToolDeclaration): TagFormat;
}

/** The step's tags: the relaxed tools' own (their longer begins first), then the one every other tool shares. */
export function sharedCallTags(step: GrammarStep, shape: SharedCallTag): TagFormat[] {
  const free = (tool: ToolDeclaration) =>
    step.relaxed.has(tool.name) || argumentsSupport(tool.parameters, shape.syntax).unsupported !== undefined;
  const constrained = step.tools.filter((tool) => !free(tool));
  const relaxed =
    shape.relaxed ??
    ((tool: ToolDeclaration) =>
      tag(shape.begin + shape.call(tool).head, freeArgumentsContent(shape.syntax), shape.end));
  const tags = step.tools.filter(free).map(relaxed);
  if (constrained.length)
    tags.push(
      tag(
        shape.begin,
        { type: 'grammar', grammar: oneCallGrammar(shape.syntax, constrained.map(shape.call)) },
        shape.end,
      ),
    );
  return tags;
}
