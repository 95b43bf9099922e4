/**
 * The part of a step's prompt that does not depend on the visitor's next
 * words, as llama.cpp reads it ahead (agent.warmup): the prompt of a request
 * whose last message is the user's, written by the engine's own prompt writer
 * (the model's chat template, or our markup with its worked example), cut
 * where that message's text begins. So the text read ahead is the start of
 * the step's prompt, character for character, and llama.cpp's prefix cache
 * keeps it for that step.
 *
 * It is read in pieces, each a completion of its own that extends the last
 * (llama.cpp reads only the new part of each), because llama.cpp reads a
 * prompt in batches of up to 2048 tokens that nothing interrupts: one piece
 * is what an abort or a request waits for at most.
 */
import type { ModelRequest } from '../../engine';
import { systemOf } from './wllama-request';
import type { PromptWriter } from './wllama-prompt';

/** Stands for the user's words while the prompt is written: plain letters, which no escaping or template changes. */
const MARK = 'inpagereadaheadmark';

/** The prompt before the text of the request's last message (the user's), or undefined when it has none. */
export function readAheadText(request: ModelRequest, writer: PromptWriter): string | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return undefined;
  const prompt = writer.write({
    system: systemOf(request),
    tools: request.tools,
    messages: [...request.messages.slice(0, -1), { role: 'user', content: MARK }],
  });
  const at = prompt.lastIndexOf(MARK);
  return at > 0 ? prompt.slice(0, at) : undefined;
}

/**
 * Where the next piece of `text` ends, read from `from` (llama.cpp holds what is before): about `size`
 * characters on, cut after a line break that a visible character follows. There the tokenizers split
 * anyway (a line break is a token of its own before a word, and special tokens hold none), so each
 * piece's tokens are the start of the next piece's, and nothing is read twice. The text's own end
 * when no such break is that far.
 */
export function nextPieceEnd(text: string, from: number, size: number): number {
  for (let at = text.indexOf('\n', from + Math.max(0, size - 1)); at !== -1; at = text.indexOf('\n', at + 1)) {
    const end = at + 1;
    if (end >= text.length) break;
    if (!/\s/.test(text[end]!)) return end;
  }
  return text.length;
}
