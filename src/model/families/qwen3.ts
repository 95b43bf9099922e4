import { CHATML } from './chatml';
import type { ModelFamily } from './family';

export const qwen3: ModelFamily = {
  name: 'Qwen3',
  ids: /^Qwen3-/i,
  architectures: /^qwen3/,
  format: 'qwen3',
  ...CHATML,
  endOfTurn: ['<|im_end|>', '<|endoftext|>'],
  tokenizer: 'qwen',
};
