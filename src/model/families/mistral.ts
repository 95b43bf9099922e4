import type { ModelFamily } from './family';

export const mistral: ModelFamily = {
  name: 'Ministral 3',
  ids: /^(Ministral-3|Mistral-7B-Instruct-v0\.3)/i,
  architectures: /^(mistral|ministral)/,
  format: 'mistral',
  markup: 'mistral',
  templateTokens: ['[INST]'],
  stops: ['[INST]', '</s>'],
  endOfTurn: ['</s>'],
  tokenizer: 'generic',
};
