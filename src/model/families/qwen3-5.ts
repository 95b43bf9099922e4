import { CHATML } from './chatml';
import type { ModelFamily } from './family';

// llama.cpp names Qwen3.5's architecture qwen35, which Qwen3's pattern takes: the name decides here.
export const qwen35: ModelFamily = {
  name: 'Qwen3.5',
  ids: /^Qwen3\.5-/i,
  format: 'qwen-xml',
  ...CHATML,
  endOfTurn: ['<|im_end|>', '<|endoftext|>'],
  tokenizer: 'qwen',
};
