import type { ModelRequest } from '../engine';
import type { ToolDeclaration } from '../../tools/declaration';

/** The tools a step's grammar holds: the prompt's, with the step's narrower arguments where it has them. */
export function grammarTools(request: ModelRequest): ToolDeclaration[] {
  const narrowed = request.narrowedArguments;
  if (!narrowed) return request.tools;
  return request.tools.map((tool) => (narrowed[tool.name] ? { ...tool, parameters: narrowed[tool.name]! } : tool));
}
