/** A step's parts as the model request the engine reads: the system sections joined into one system message. */
import type { ChatMessage, ModelRequest } from '../../model/engine';
import type { StepRequest } from '../types';

export function requestOf(step: StepRequest): ModelRequest {
  const messages: ChatMessage[] = step.system.length
    ? [{ role: 'system', content: step.system.join('\n\n') }, ...step.messages]
    : step.messages;
  return {
    messages,
    tools: step.tools,
    ...(step.allowedTools && { allowedTools: step.allowedTools }),
    ...(step.narrowedArguments && { narrowedArguments: step.narrowedArguments }),
    ...(step.toolChoice && { toolChoice: step.toolChoice }),
  };
}
