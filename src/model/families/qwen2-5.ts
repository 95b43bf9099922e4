import { CHATML } from './chatml';
import type { ModelFamily } from './family';
import { hermes } from '../formats/hermes';

export const qwen25: ModelFamily = {
  name: 'Qwen2.5, Qwen2.5-Coder',
  ids: /^Qwen2(\.5)?-/i,
  architectures: /^qwen2/,
  format: hermes,
  ...CHATML,
  endOfTurn: ['<|im_end|>', '<|endoftext|>'],
  tokenizer: 'qwen',
};
