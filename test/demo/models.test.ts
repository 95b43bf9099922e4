// The demo's model picker: which model it suggests for a device, and how it words download progress.
import { describe, expect, test } from 'vitest';
import { bestChoice } from '../../demo/models';
import { describeProgress } from '../../demo/ui/model-picker';

describe('the suggested model', () => {
  test('is the most capable one that fits the memory and the GPU’s features', () => {
    expect(bestChoice({ adapter: true, f16: true, budgetMB: 8 * 512 })?.id).toBe('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
    // Without shader-f16 (e.g. SwiftShader) the q4f16 models are out.
    expect(bestChoice({ adapter: true, f16: false, budgetMB: 8 * 512 })?.id).toBe('Llama-3.2-1B-Instruct-q4f32_1-MLC');
    expect(bestChoice({ adapter: true, f16: true, budgetMB: 16 * 512 })?.id).toBe('Hermes-3-Llama-3.1-8B-q4f32_1-MLC');
    // Little memory: the smallest.
    expect(bestChoice({ adapter: true, f16: false, budgetMB: 1 * 512 })?.id).toBe('SmolLM2-360M-Instruct-q4f32_1-MLC');
  });

  test('is none without WebGPU', () => {
    expect(bestChoice({ adapter: false, f16: false, budgetMB: 4096 })).toBeUndefined();
  });
});

test('download progress says bytes, speed and time left', () => {
  const MB = 2 ** 20;
  expect(describeProgress(312 * MB, 580 * MB, 12 * MB, 60)).toBe('312 / 580 MB · 5.0 MB/s · 54 s left');
  expect(describeProgress(100 * MB, 1000 * MB, 0, 10)).toBe('100 / 1000 MB · 10.0 MB/s · 2 min left');
  expect(describeProgress(5 * MB, 580 * MB, 5 * MB, 0.2)).toBe('5 / 580 MB');
});
