/**
 * One generation of the agent's engine, outside the loop, as a stream the page
 * reads (agent.generate, which inpage-agent/ai-sdk's inpageModel runs on). The
 * engine is the agent's own, so the step takes its turn with the agent's runs,
 * keeps its family's format and grammar, and its KV cache. Cancelling the
 * stream aborts the generation. A failure ends the stream with the
 * AgentError's plain form: a thrown class loses its `code` in the crossing.
 */
import { AgentError, messageOf } from '../errors';
import type { ModelDelta, ModelEngine, ModelRequest } from '../model/engine';
import { shownName, toolNameProblem } from '../tools/tool-name';

export function deltaStream(engine: ModelEngine, request: ModelRequest): ReadableStream<ModelDelta> {
  checkRequest(request);
  const abort = new AbortController();
  let deltas: AsyncIterator<ModelDelta> | undefined;
  return new ReadableStream<ModelDelta>({
    async pull(controller) {
      try {
        deltas ??= engine.generate(request, abort.signal)[Symbol.asyncIterator]();
        const next = await deltas.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        const failure =
          error instanceof AgentError
            ? error
            : new AgentError('model-failed', `The model failed: ${messageOf(error)}`, { cause: error });
        controller.error(failure.toJSON());
      }
    },
    cancel() {
      abort.abort();
      void deltas?.return?.().catch(() => undefined);
    },
  });
}

/** A request comes from page code: its tool names keep the one rule, since the grammar and the prompt write them. */
function checkRequest(request: ModelRequest): void {
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
