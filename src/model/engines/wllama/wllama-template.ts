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
import { familyOfArchitecture, familyOfTemplate, markupStops, type TemplateName } from '../../families';

export type { TemplateName };

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
    stops: markupStops('gemma'),
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
    stops: markupStops('chatml'),
    render: (turns) =>
      `${turns.map((turn) => `<|im_start|>${turn.role}\n${turn.content}<|im_end|>\n`).join('')}<|im_start|>assistant\n`,
  },
  llama3: {
    name: 'llama3',
    stops: markupStops('llama3'),
    render: (turns) =>
      `${turns.map((turn) => `<|start_header_id|>${turn.role}<|end_header_id|>\n\n${turn.content}<|eot_id|>`).join('')}<|start_header_id|>assistant<|end_header_id|>\n\n`,
  },
  phi: {
    name: 'phi',
    stops: markupStops('phi'),
    render: (turns) => `${turns.map((turn) => `<|${turn.role}|>${turn.content}<|end|>`).join('')}<|assistant|>`,
  },
  mistral: {
    name: 'mistral',
    stops: markupStops('mistral'),
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

/** Which markup a GGUF's model takes: its chat template's tokens first, then its architecture (families/). */
export function templateOf(metadata: Readonly<Record<string, string>>): TemplateName {
  const family =
    familyOfTemplate(metadata['tokenizer.chat_template'] ?? '') ??
    familyOfArchitecture(metadata['general.architecture'] ?? '');
  return family?.markup ?? 'chatml';
}

function splitSystem(turns: readonly Turn[]): [string, Turn[]] {
  const system = turns
    .filter((turn) => turn.role === 'system')
    .map((turn) => turn.content)
    .join('\n\n');
  return [system, turns.filter((turn) => turn.role !== 'system')];
}
