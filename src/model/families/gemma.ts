import type { ModelFamily } from './family';
import { gemma4 as gemma4Format } from '../formats/gemma4';
import { gemmaToolCode } from '../formats/gemma-tool-code';

const GEMMA_MARKUP = {
  markup: 'gemma',
  templateTokens: ['<start_of_turn>'],
  stops: ['<start_of_turn>', '<end_of_turn>'],
  tokenizer: 'gemma',
} as const;

// Before Gemma 2, 3: its architecture (gemma4) is theirs too (/^gemma/).
export const gemma4: ModelFamily = {
  name: 'gemma-4',
  ids: /^gemma-4-/i,
  architectures: /^gemma4/,
  format: gemma4Format,
  ...GEMMA_MARKUP,
  endOfTurn: ['<turn|>'],
};

export const gemma: ModelFamily = {
  name: 'Gemma 2, Gemma 3',
  ids: /^gemma(-2|3|-2b)/i,
  architectures: /^gemma/,
  format: gemmaToolCode,
  ...GEMMA_MARKUP,
  endOfTurn: ['<end_of_turn>'],
};
