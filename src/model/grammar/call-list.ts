/**
 * The content of a tag that holds a JSON list of calls (SmolLM2's
 * `<tool_call>[…]</tool_call>`, Phi-4-mini's `functools[…]`): one grammar for
 * every tool of the step, so that the rules their arguments share (strings,
 * numbers, whitespace) are compiled once. A tool whose schema no grammar can
 * hold takes any object as its arguments.
 */
import { callListGrammar, FREE_OBJECT } from './ebnf-arguments';
import { argumentsSupport } from './grammar-support';
import type { StructuralTagFormat } from './structural-tag';
import type { GrammarStep } from './grammar-step';

export function callListContent(step: GrammarStep): StructuralTagFormat {
  const tools = step.tools.map((tool) => {
    const free = step.relaxed.has(tool.name) || argumentsSupport(tool.parameters, 'json').unsupported !== undefined;
    return { name: tool.name, schema: free ? FREE_OBJECT : tool.parameters };
  });
  return { type: 'grammar', grammar: callListGrammar(tools).grammar };
}
