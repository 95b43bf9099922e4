/**
 * The agent's model beside the loop: whether its files are cached, one step outside the session
 * (agent.generate), the prompt's constant part read ahead (agent.warmup), and how the next step would
 * spend its context window. Runs share the engine's turns with these; the engine pool orders them.
 */
import * as Comlink from 'comlink';
import type { ModelDelta, ModelRequest, PromptRead, WarmupResult } from '../../model/engine';
import { readAheadUnsupported } from '../../model/read-ahead-unsupported';
import { recentEvents } from '../../session/recent-events';
import { nextStepUsage } from '../../flow/context-usage';
import { readAheadRequest } from '../../flow/read-ahead-request';
import type { ModelApi, WarmupInput } from '../../contract/protocol';
import { deltaStream } from '../delta-stream';
import { openedReady, type Current } from '../ready';
import type { RunsService } from './runs';

export class ModelService implements ModelApi {
  constructor(
    private readonly current: Current,
    /** A warmup waits for no run and is stopped like one (RunsService.abort). */
    private readonly runs: Pick<RunsService, 'busy' | 'trackWarmup'>,
  ) {}

  async isCached(): Promise<boolean> {
    return (await this.current().context.engine.isCached?.()) ?? false;
  }

  async deleteCache(): Promise<void> {
    await this.current().context.engine.deleteCache?.();
  }

  async generate(request: ModelRequest): Promise<ReadableStream<ModelDelta>> {
    const stream = deltaStream(this.current().context.engine, request);
    return Comlink.transfer(stream, [stream as unknown as Transferable]);
  }

  warmup(input: WarmupInput, onRead?: (progress: PromptRead) => void): Promise<WarmupResult> {
    const t0 = performance.now();
    const { engine } = this.current().context;
    if (!engine.readAhead) return Promise.resolve(readAheadUnsupported(engine.info));
    // A run under way reads its own prompt, step after step: read ahead now, the warmup would come between its steps.
    if (this.runs.busy)
      return Promise.resolve({
        ...readAheadUnsupported(engine.info),
        status: 'skipped',
        reason: 'A run was under way: its own steps keep the model’s cache, and nothing was read ahead.',
      });
    const controller = new AbortController();
    const forget = this.runs.trackWarmup(input.runId, controller);
    // After the session opened before it, as a run is; the engine's turn is taken then, so a message sent after
    // this waits for it. The request is built in that turn, from the session as it is then.
    return openedReady(this.current)
      .then((ready) =>
        ready.inTurn(async (own) => {
          const { store, context } = this.current();
          const request = await readAheadRequest(context, await recentEvents(store, context.sessionId));
          // A page that has gone cannot be told; the reading goes on.
          const told =
            onRead && ((progress: PromptRead) => void Promise.resolve(onRead(progress)).catch(() => undefined));
          const result = await own.readAhead!(request, controller.signal, told);
          return { ...result, ms: performance.now() - t0 };
        }, controller.signal),
      )
      .finally(forget);
  }

  async contextUsage() {
    const { store, context } = await openedReady(this.current);
    return nextStepUsage(context, await recentEvents(store, context.sessionId));
  }
}
