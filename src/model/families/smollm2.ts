import { CHATML } from './chatml';
import type { ModelFamily } from './family';

export const smollm2: ModelFamily = {
  name: 'SmolLM2',
  ids: /^SmolLM2-/i,
  format: 'smollm2',
  ...CHATML,
  endOfTurn: ['<|im_end|>', '<|endoftext|>'],
  tokenizer: 'generic',
};
