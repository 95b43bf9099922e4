/**
 * What a request for one raw model step (agent.generate) must be. It comes
 * from page code, so its tool names keep the one rule: the grammar and the
 * prompt write them.
 */
import { AgentError } from '../errors';
import type { ModelRequest } from '../model/engine';
import { shownName, toolNameProblem } from '../tools/tool-name';

export function checkModelRequest(request: ModelRequest): void {
  if (!request || !Array.isArray(request.messages) || !Array.isArray(request.tools))
    throw new AgentError(
      'invalid-options',
      'agent.generate(request) needs { messages: ChatMessage[], tools: ToolDeclaration[] } (tools may be empty).',
    );
  for (const tool of request.tools) {
    const problem = typeof tool?.name === 'string' ? toolNameProblem(tool.name) : 'must be a string';
    if (problem)
      throw new AgentError(
        'invalid-tool',
        `A tool of this request cannot be offered: its name ${shownName(String(tool?.name))} ${problem}.`,
      );
  }
}
