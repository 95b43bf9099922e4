import { CHATML } from './chatml';
import type { ModelFamily } from './family';
import { qwenXml } from '../formats/qwen-xml';

// llama.cpp names Qwen3.5's architecture qwen35, which Qwen3's pattern takes: the name decides here.
export const qwen35: ModelFamily = {
  name: 'Qwen3.5',
  ids: /^Qwen3\.5-/i,
  format: qwenXml,
  ...CHATML,
  endOfTurn: ['<|im_end|>', '<|endoftext|>'],
  tokenizer: 'qwen',
};
