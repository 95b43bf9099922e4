import { CHATML } from './chatml';
import type { ModelFamily } from './family';
import { qwen3 as qwen3Format } from '../formats/qwen3';

export const qwen3: ModelFamily = {
  name: 'Qwen3',
  ids: /^Qwen3-/i,
  architectures: /^qwen3/,
  format: qwen3Format,
  ...CHATML,
  endOfTurn: ['<|im_end|>', '<|endoftext|>'],
  tokenizer: 'qwen',
};
