/**
 * How a step's prompt is written for llama.cpp: by the model's own chat
 * template where its GGUF carries one (jinja-prompt.ts), else in its family's
 * markup written by us (a base model: wllama-template.ts, with the worked
 * example of base-model-example.ts). Either way the prompt is finished text
 * (a raw completion), so that each step's prompt extends the last one and
 * llama.cpp's prefix cache holds.
 */
import type { ToolDeclaration } from '../../../tools/declaration';
import type { ChatMessage } from '../../engine';
import { withExample } from '../../base-model-example';
import type { ToolFormat } from '../../formats/tool-format';
import type { ChatTemplate, Turn } from './wllama-template';
import { conversationTurns } from '../conversation-turns';
import { alternatingTurns } from '../alternating-turns';
import { escapeUntrusted, type Escape } from '../../escape';
import { shownTools } from '../../escape-parts';

/** A step's conversation as a prompt writer takes it. */
export interface PromptInput {
  /** The system text (instructions), without the tools. */
  system: string;
  /** The tools described to the model (the run's, the same every step). */
  tools: readonly ToolDeclaration[];
  /** The conversation after the system text. */
  messages: readonly ChatMessage[];
  /** This step answers in words (the run may call no tool now): after its tools' results, the model is told so. */
  answers?: boolean;
}

export interface PromptWriter {
  /** Where the model's turn ends, as text (its end-of-turn token ends it anyway). */
  readonly stops: string[];
  /** 'template': the GGUF's own chat template; 'markup': ours, for a model without one. */
  readonly kind: 'template' | 'markup';
  /** The prompt for a step, ending where the model's answer begins. */
  write(input: PromptInput): string;
}

/**
 * Our markup of the family (a model without a chat template): tools in the system text, results as a user turn.
 * `escape`: how text the model did not write is escaped (with its tokenizer's special tokens: escaperFor).
 */
export function markupPrompt(
  template: ChatTemplate,
  format: ToolFormat,
  options: { base: boolean; escape?: Escape },
): PromptWriter {
  const escape = options.escape ?? escapeUntrusted;
  return {
    stops: template.stops,
    kind: 'markup',
    write({ system, tools, messages }) {
      const section = tools.length ? format.describeTools(shownTools(tools, escape)) : '';
      const systemText = (format.toolsFirst ? [section, system] : [system, section]).filter(Boolean).join('\n\n');
      const own: Turn[] = [
        ...(systemText ? [{ role: 'system' as const, content: systemText }] : []),
        ...markupTurns(messages, format, escape),
      ];
      return template.render(options.base && tools.length ? withExample(own, format, tools) : own);
    },
  };
}

/**
 * The conversation as turns: tool results of one step become one user turn, written the way the family reads
 * them, which shares a user turn next to it (alternating-turns.ts).
 */
function markupTurns(messages: readonly ChatMessage[], format: ToolFormat, escape: Escape): Turn[] {
  return alternatingTurns(
    conversationTurns(messages, format, escape).map((turn): Turn =>
      turn.role === 'results' ? { role: 'user', content: format.writeResults(turn.results) } : turn,
    ),
  );
}
