/**
 * The optional values a tool's error quotes. A tool that cannot do a call
 * says which value stopped it ('No product holds "Z to A", so nothing was
 * sorted. Leave filter out to sort them all.'); told so, the 0.5B wrote the
 * same call again, and the repeat was refused. An optional argument the
 * error quotes is one the retry can leave out (retry-values.ts); a required
 * one stays, to be written again from the visitor's words.
 */
import type { FunctionCall, FunctionResponse } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import { TOOL_FAILED } from '../call-processors/run-tool';
import { optionalTexts } from './grounded-values';

/** For each tool of `calls` its tool failed, the keys of its optional text arguments whose value the error quotes. */
export function quotedOptionalValues(
  calls: readonly FunctionCall[],
  responses: readonly FunctionResponse[],
  tools: readonly ToolDeclaration[],
): Map<string, Set<string>> {
  const quoted = new Map<string, Set<string>>();
  for (const call of calls) {
    const response = responses.find((candidate) => candidate.id === call.id);
    const tool = tools.find((candidate) => candidate.name === call.name);
    if (response?.code !== TOOL_FAILED || !response.error || !tool) continue;
    const error = response.error.toLowerCase();
    for (const [key, value] of optionalTexts(call.args, tool.parameters)) {
      if (!quotes(error, value.trim().toLowerCase())) continue;
      const keys = quoted.get(call.name) ?? new Set<string>();
      quoted.set(call.name, keys.add(key));
    }
  }
  return quoted;
}

/** The value in quotes of any kind, not merely a word of the error that happens to equal it. */
function quotes(error: string, value: string): boolean {
  return ['"', "'", '“', '‘', '`'].some((open) => {
    const close = open === '“' ? '”' : open === '‘' ? '’' : open;
    return error.includes(`${open}${value}${close}`);
  });
}
