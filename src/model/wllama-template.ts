/**
 * The conversation markup of the model families a GGUF may hold, written by
 * us: llama.cpp gets the finished prompt (raw completion), so the prompt of
 * each step extends the last one token for token and its prefix cache holds,
 * and a model without a chat template of its own (a base model) still gets
 * its family's turns. llama.cpp adds the BOS token itself.
 *
 * Which markup a model takes is read from its GGUF: the chat template it
 * carries (by the tokens it uses), else its architecture.
 */
export type TemplateName = 'gemma' | 'chatml' | 'llama3' | 'phi' | 'mistral';

export interface Turn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatTemplate {
  name: TemplateName;
  /**
   * Where a turn of the model ends, as text: a model that writes the next turn's opening (a base
   * model continues the dialogue it sees) has finished its own. Its end-of-turn token ends it anyway.
   */
  stops: string[];
  /** The prompt for these turns, ending where the model's answer begins. */
  render(turns: readonly Turn[]): string;
}

const TEMPLATES: Record<TemplateName, ChatTemplate> = {
  // Gemma has no system turn: the system text opens the first user turn, as its own template does.
  gemma: {
    name: 'gemma',
    stops: ['<start_of_turn>', '<end_of_turn>'],
    render: (turns) => {
      const [system, rest] = splitSystem(turns);
      let out = '';
      rest.forEach((turn, index) => {
        const content = index === 0 && turn.role === 'user' && system ? `${system}\n\n${turn.content}` : turn.content;
        out += `<start_of_turn>${turn.role === 'assistant' ? 'model' : 'user'}\n${content}<end_of_turn>\n`;
      });
      return `${out}<start_of_turn>model\n`;
    },
  },
  chatml: {
    name: 'chatml',
    stops: ['<|im_start|>', '<|im_end|>'],
    render: (turns) =>
      `${turns.map((turn) => `<|im_start|>${turn.role}\n${turn.content}<|im_end|>\n`).join('')}<|im_start|>assistant\n`,
  },
  llama3: {
    name: 'llama3',
    stops: ['<|start_header_id|>', '<|eot_id|>'],
    render: (turns) =>
      `${turns.map((turn) => `<|start_header_id|>${turn.role}<|end_header_id|>\n\n${turn.content}<|eot_id|>`).join('')}<|start_header_id|>assistant<|end_header_id|>\n\n`,
  },
  phi: {
    name: 'phi',
    stops: ['<|user|>', '<|end|>'],
    render: (turns) => `${turns.map((turn) => `<|${turn.role}|>${turn.content}<|end|>`).join('')}<|assistant|>`,
  },
  mistral: {
    name: 'mistral',
    stops: ['[INST]', '</s>'],
    render: (turns) => {
      const [system, rest] = splitSystem(turns);
      let out = '';
      rest.forEach((turn, index) => {
        if (turn.role === 'assistant') out += `${turn.content}</s>`;
        else out += `[INST]${index === 0 && system ? `${system}\n\n` : ''}${turn.content}[/INST]`;
      });
      return out;
    },
  },
};

export function chatTemplate(name: TemplateName): ChatTemplate {
  return TEMPLATES[name];
}

/** Which markup a GGUF's model takes: its chat template's tokens first, then its architecture. */
export function templateOf(metadata: Readonly<Record<string, string>>): TemplateName {
  const template = metadata['tokenizer.chat_template'] ?? '';
  if (template.includes('<start_of_turn>')) return 'gemma';
  if (template.includes('<|im_start|>')) return 'chatml';
  if (template.includes('<|start_header_id|>')) return 'llama3';
  if (template.includes('<|assistant|>') && template.includes('<|end|>')) return 'phi';
  if (template.includes('[INST]')) return 'mistral';
  const architecture = metadata['general.architecture'] ?? '';
  if (/^gemma/.test(architecture)) return 'gemma';
  if (/^phi/.test(architecture)) return 'phi';
  if (/^mistral/.test(architecture)) return 'mistral';
  return 'chatml';
}

function splitSystem(turns: readonly Turn[]): [string, Turn[]] {
  const system = turns
    .filter((turn) => turn.role === 'system')
    .map((turn) => turn.content)
    .join('\n\n');
  return [system, turns.filter((turn) => turn.role !== 'system')];
}
