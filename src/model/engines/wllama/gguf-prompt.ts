/**
 * How a GGUF's prompt is written, settled from its header before llama.cpp
 * reads the file: the tool-call format its model writes, the prompt writer
 * (its own chat template, checked and bounded: jinja-prompt.ts,
 * chat-template.ts; else its family's markup), and how text the model did not
 * write is escaped: with the special tokens of its own tokenizer.
 *
 * Those tokens are the vocabulary's control tokens (llama.cpp reads each, whole
 * in a prompt's text, as the one token: Gemma 3 has 6,249, `<eos>`, `<pad>`,
 * `<mask>`, `<unused0>` …) and the user-defined tokens its chat template
 * writes (Qwen's `<tool_call>`, Gemma 3's `<start_of_image>`), but for blank
 * ones; its other user-defined tokens are text (Gemma's runs of newlines and
 * spaces, `<table>`, `<b>`). So a family added later is covered by its own
 * file, with no list of ours.
 *
 * llama.cpp never reads the template: the engine names one of llama.cpp's
 * own instead (every prompt is finished text here, which llama.cpp's template
 * never touches). A template llama.cpp could not parse stopped the load with
 * its command-line advice ("--no-jinja --chat-template chatml"), and a long
 * or looping one stalled it for 90 s.
 */
import { AgentError, messageOf } from '../../../errors';
import { escaperFor } from '../../escape';
import { toolFormatNamed } from '../../formats/registry';
import type { ToolFormat, ToolFormatName } from '../../formats/tool-format';
import { MAX_TEMPLATE_CHARS, isTemplateRefusal } from './chat-template';
import { ggufMetadata, type MetadataValue } from './gguf-metadata';
import { jinjaPrompt } from './jinja-prompt';
import { formatOf, modelNameOf } from './wllama-family';
import { markupPrompt, type PromptWriter } from './wllama-prompt';
import { chatTemplate, templateOf, type TemplateName } from './wllama-template';

export interface GgufPrompt {
  format: ToolFormat;
  prompt: PromptWriter;
  /** The GGUF has no chat template: a base model, written in its family's markup. */
  base: boolean;
  /** The family's markup: what the prompt is written in when the model's own template is not used. */
  markup: TemplateName;
  /** Why the model's own template is not used, when it has one that is not. */
  notice?: string;
  /** The special tokens text the model did not write is escaped against. */
  specialTokens: readonly string[];
}

export interface GgufPromptOptions {
  /** model.modelId, model.toolFormat and the first file's URL, as the page gave them. */
  modelId?: string;
  toolFormat?: ToolFormatName;
  url: string;
}

const KEYS = [
  'general.name',
  'general.architecture',
  'tokenizer.chat_template',
  'tokenizer.ggml.tokens',
  'tokenizer.ggml.token_type',
];
/** llama.cpp's token types (llama_token_type): control and user-defined tokens are read whole from a prompt's text. */
const CONTROL = 3;
const USER_DEFINED = 4;

/** The prompt of the GGUF whose first file is `blob`, or a refusal of its chat template (the file is refused). */
export async function ggufPrompt(blob: Blob, options: GgufPromptOptions): Promise<GgufPrompt> {
  const values = await ggufMetadata(
    async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
    blob.size,
    KEYS,
    // Bytes: a template of MAX_TEMPLATE_CHARS characters may take four bytes for each.
    4 * MAX_TEMPLATE_CHARS,
  ).catch((error: unknown) => {
    throw new AgentError('model-invalid', `The GGUF's header cannot be read: ${messageOf(error)}.`, { cause: error });
  });
  const template = values.get('tokenizer.chat_template');
  if (typeof template === 'object' && !Array.isArray(template))
    throw new AgentError(
      'model-invalid',
      `The model's chat template (tokenizer.chat_template in its GGUF) is ${(template as { tooLong: number }).tooLong.toLocaleString('en')} bytes long, more than a chat template may be (real ones have a few thousand); it was refused, and the file with it. The template comes with the file: use another GGUF of the model.`,
      { details: { template: 'refused' } },
    );
  const text = (key: string) => (typeof values.get(key) === 'string' ? (values.get(key) as string) : undefined);
  const source = text('tokenizer.chat_template');
  const specialTokens = specialTokensOf(
    values.get('tokenizer.ggml.tokens'),
    values.get('tokenizer.ggml.token_type'),
    source,
  );
  const escape = escaperFor(specialTokens);
  const format = toolFormatNamed(
    options.toolFormat ??
      formatOf([options.modelId, text('general.name'), modelNameOf(options.url)], text('general.architecture')),
  );
  const markup = chatTemplate(
    templateOf({ 'tokenizer.chat_template': source ?? '', 'general.architecture': text('general.architecture') ?? '' }),
  );
  const written = { format, markup: markup.name, specialTokens };
  if (!source) return { ...written, prompt: markupPrompt(markup, format, { base: true, escape }), base: true };
  try {
    return { ...written, prompt: jinjaPrompt(source, format, markup.stops, { escape }), base: false };
  } catch (error) {
    if (isTemplateRefusal(error)) throw error;
    return {
      ...written,
      prompt: markupPrompt(markup, format, { base: false, escape }),
      base: false,
      notice: `${messageOf(error)} Its turns are written in ${markup.name}'s markup instead.`,
    };
  }
}

/** The control tokens, and the user-defined tokens the chat template writes but for blank ones (Gemma's "\n\n"). */
function specialTokensOf(
  tokens: MetadataValue | undefined,
  types: MetadataValue | undefined,
  template: string | undefined,
): string[] {
  if (!Array.isArray(tokens) || !Array.isArray(types)) return [];
  const out: string[] = [];
  types.forEach((type, id) => {
    const token = tokens[id];
    if (typeof token !== 'string') return;
    if (type === CONTROL || (type === USER_DEFINED && /\S/.test(token) && template?.includes(token))) out.push(token);
  });
  return out;
}
