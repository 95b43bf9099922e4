import { CHATML } from './chatml';
import type { ModelFamily } from './family';
import { smollm2 as smollm2Format } from '../formats/smollm2';

export const smollm2: ModelFamily = {
  name: 'SmolLM2',
  ids: /^SmolLM2-/i,
  format: smollm2Format,
  ...CHATML,
  endOfTurn: ['<|im_end|>', '<|endoftext|>'],
  tokenizer: 'generic',
};
