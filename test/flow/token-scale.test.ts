import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors';
import type { ModelEngine } from '../../src/model/engine';
import { learnFromOverflow, learnTokenScale, tokenScale } from '../../src/flow/token-scale';

/** What the scale reads of an engine: which model it runs. */
function engineRunning(modelId: string): ModelEngine {
  const info = { modelId, engine: 'wllama' };
  return { info } as unknown as ModelEngine;
}

const overflow = (promptTokens?: number) =>
  new AgentError('context-overflow', 'the prompt is longer than the window', {
    details: promptTokens === undefined ? { log: [] } : { log: [], promptTokens },
  });

describe('how far the window guard’s counts fall short of the model’s', () => {
  it('starts at 1, and grows in eighths to cover the shortfall a step measured', () => {
    const engine = engineRunning('m');
    expect(tokenScale(engine)).toBe(1);
    learnTokenScale(engine, 400, 500); // 1.25
    expect(tokenScale(engine)).toBe(1.25);
    learnTokenScale(engine, 400, 510); // 1.275: the next eighth up
    expect(tokenScale(engine)).toBe(1.375);
  });

  it('never shrinks, so the guard’s cut (and the prompt cache) does not move back and forth', () => {
    const engine = engineRunning('m');
    learnTokenScale(engine, 400, 600);
    learnTokenScale(engine, 400, 420);
    expect(tokenScale(engine)).toBe(1.5);
  });

  it('learns nothing from an engine that counts fewer (only what it prefilled), a tiny prompt or no count', () => {
    const engine = engineRunning('m');
    learnTokenScale(engine, 900, 40);
    learnTokenScale(engine, 20, 200);
    learnTokenScale(engine, 900, undefined);
    learnTokenScale(engine, 900, Number.NaN);
    expect(tokenScale(engine)).toBe(1);
  });

  it('starts again when the engine runs another model', () => {
    const engine = engineRunning('m');
    learnTokenScale(engine, 400, 800);
    (engine.info as { modelId: string }).modelId = 'other';
    expect(tokenScale(engine)).toBe(1);
  });

  it('learns from a context-overflow that carries the model’s count, once per new count', () => {
    const engine = engineRunning('m');
    expect(learnFromOverflow(engine, overflow(1053), 700)).toBe(1053);
    expect(tokenScale(engine)).toBe(1.625);
    // The same count again teaches nothing: the step is not asked a third time.
    expect(learnFromOverflow(engine, overflow(1053), 700)).toBeUndefined();
    // Without the model's count, from the guard itself, or another error: nothing to learn.
    expect(learnFromOverflow(engine, overflow(), 300)).toBeUndefined();
    expect(
      learnFromOverflow(engine, new AgentError('model-failed', 'x', { details: { promptTokens: 5000 } }), 300),
    ).toBeUndefined();
    expect(learnFromOverflow(engine, overflow(5000), undefined)).toBeUndefined();
    expect(tokenScale(engine)).toBe(1.625);
  });
});
