/**
 * A declaration as the worker takes it from a page: the page checked its
 * tools (asTool), and the worker keeps the rules too, for any page that did
 * not: the one tool-name rule, and no page tool may claim to be built in
 * (the runtime's own agent tools ask no one).
 */
import { AgentError } from '../errors';
import type { ToolDeclaration } from './declaration';
import { shownName, toolNameProblem } from './tool-name';

export function checkDeclaration(tool: ToolDeclaration): ToolDeclaration {
  const problem = typeof tool.name === 'string' ? toolNameProblem(tool.name) : 'must be a string';
  if (problem)
    throw new AgentError(
      'invalid-tool',
      `The worker refused a tool: its name ${shownName(String(tool.name))} ${problem}.`,
    );
  if (tool.source === 'builtin')
    throw new AgentError(
      'invalid-tool',
      `The worker refused the tool "${tool.name}": only the runtime's own agent tools are built in.`,
    );
  return tool;
}
