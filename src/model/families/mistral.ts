import type { ModelFamily } from './family';
import { mistral as mistralFormat } from '../formats/mistral';

export const mistral: ModelFamily = {
  name: 'Ministral 3',
  ids: /^(Ministral-3|Mistral-7B-Instruct-v0\.3)/i,
  architectures: /^(mistral|ministral)/,
  format: mistralFormat,
  markup: 'mistral',
  templateTokens: ['[INST]'],
  stops: ['[INST]', '</s>'],
  endOfTurn: ['</s>'],
  tokenizer: 'generic',
};
