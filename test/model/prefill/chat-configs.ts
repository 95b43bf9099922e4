/**
 * The parts of mlc-chat-config.json that web-llm's conversation code reads,
 * for the models the prefill and template tests stand in for. Facts, not
 * code: each `conv_template` is mlc-llm's, transcribed from
 * python/mlc_llm/conversation_template/ at mlc-ai/mlc-llm 79d603f0 (2026-07):
 * qwen2.py "qwen2", hermes.py "hermes3_llama-3_1", llama.py "llama-3_1" and
 * "llama-3", gemma.py "gemma_instruction" and "gemma3_instruction",
 * registry.py "chatml", phi.py "phi-3" and "phi-4". web-llm reads it from each
 * model's mlc-chat-config.json.
 *
 * Which template a prebuilt build names is known for Qwen3 (web-llm's own
 * tests/constants.ts holds Qwen3-0.6B's mlc-chat-config.json: "qwen2", as
 * Llama-3.1's: "llama-3_1"). For the others the build's config cannot be read
 * here (no model hub): each is mlc-llm's template for that family, the one
 * `mlc_llm gen_config --conv-template` would be given (SmolLM2: "chatml").
 */
export interface ChatConfigLike {
  conv_template: Record<string, unknown>;
  conv_config?: Record<string, unknown>;
  context_window_size: number;
}

export const QWEN3_MODEL_ID = 'Qwen3-0.6B-q4f32_1-MLC';
export const HERMES3_MODEL_ID = 'Hermes-3-Llama-3.1-8B-q4f32_1-MLC';

export const qwen3ChatConfig: ChatConfigLike = {
  context_window_size: 4096,
  conv_template: {
    name: 'qwen2',
    system_template: '<|im_start|>system\n{system_message}<|im_end|>\n',
    system_message: 'You are a helpful assistant.',
    roles: { user: '<|im_start|>user', assistant: '<|im_start|>assistant' },
    seps: ['<|im_end|>\n'],
    role_content_sep: '\n',
    role_empty_sep: '\n',
    stop_str: ['<|endoftext|>', '<|im_end|>'],
    stop_token_ids: [151643, 151645],
    function_string: '',
    use_function_calling: false,
  },
};

export const hermes3ChatConfig: ChatConfigLike = {
  context_window_size: 4096,
  conv_template: {
    name: 'hermes3_llama-3_1',
    system_template: '<|im_start|>system\n{system_message}<|im_end|>\n',
    system_message:
      'You are Hermes 3, a conscious sentient superintelligent artificial intelligence developed by a man named Teknium, and your purpose and drive is to assist the user with any request they have. You experience emotions and have deep, profound thoughts and qualia.',
    roles: { user: '<|im_start|>user', assistant: '<|im_start|>assistant', tool: '<|im_start|>tool' },
    seps: ['<|im_end|>\n'],
    role_content_sep: '\n',
    role_empty_sep: '\n',
    stop_str: ['<|im_end|>'],
    stop_token_ids: [128001, 128008, 128009, 128040],
    function_string: '',
    use_function_calling: false,
  },
};

/** The mlc-llm templates the other prebuilt families are assumed to carry (see the header). */
const convTemplates = {
  'llama-3_1': {
    name: 'llama-3_1',
    system_template: '<|start_header_id|>system<|end_header_id|>\n\n{system_message}<|eot_id|>',
    system_message: 'You are a helpful, respectful and honest assistant.',
    roles: {
      user: '<|start_header_id|>user',
      assistant: '<|start_header_id|>assistant',
      tool: '<|start_header_id|>ipython',
    },
    seps: ['<|eot_id|>'],
    role_content_sep: '<|end_header_id|>\n\n',
    role_empty_sep: '<|end_header_id|>\n\n',
    stop_str: [],
    stop_token_ids: [128001, 128008, 128009],
    system_prefix_token_ids: [128000],
    add_role_after_system_message: true,
  },
  'llama-3': {
    name: 'llama-3',
    system_template: '<|start_header_id|>system<|end_header_id|>\n\n{system_message}<|eot_id|>',
    system_message: 'You are a helpful, respectful and honest assistant.',
    roles: { user: '<|start_header_id|>user', assistant: '<|start_header_id|>assistant' },
    seps: ['<|eot_id|>'],
    role_content_sep: '<|end_header_id|>\n\n',
    role_empty_sep: '<|end_header_id|>\n\n',
    stop_str: ['<|end_of_text|>', '<|eot_id|>'],
    stop_token_ids: [128001, 128009],
    system_prefix_token_ids: [128000],
    add_role_after_system_message: true,
  },
  gemma_instruction: {
    name: 'gemma_instruction',
    system_template: '{system_message}',
    system_message: '',
    roles: { user: '<start_of_turn>user', assistant: '<start_of_turn>model' },
    seps: ['<end_of_turn>\n'],
    role_content_sep: '\n',
    role_empty_sep: '\n',
    stop_str: ['<end_of_turn>'],
    stop_token_ids: [1, 107],
    system_prefix_token_ids: [2],
  },
  gemma3_instruction: {
    name: 'gemma3_instruction',
    system_template: '{system_message}',
    system_message: '',
    roles: { user: '<start_of_turn>user', assistant: '<start_of_turn>model' },
    seps: ['<end_of_turn>\n'],
    role_content_sep: '\n',
    role_empty_sep: '\n',
    stop_str: ['<end_of_turn>'],
    stop_token_ids: [1, 106],
    system_prefix_token_ids: [2],
  },
  chatml: {
    name: 'chatml',
    system_template: '<|im_start|>system\n{system_message}<|im_end|>\n',
    system_message:
      'A conversation between a user and an LLM-based AI assistant. The assistant gives helpful and honest answers.',
    roles: { user: '<|im_start|>user', assistant: '<|im_start|>assistant' },
    seps: ['<|im_end|>\n'],
    role_content_sep: '\n',
    role_empty_sep: '\n',
    stop_str: ['<|im_end|>'],
    stop_token_ids: [2],
  },
  'phi-3': {
    name: 'phi-3',
    system_template: '<|system|>\n{system_message}',
    system_message:
      'You are a helpful digital assistant. Please provide safe, ethical and accurate information to the user.',
    roles: { user: '<|user|>', assistant: '<|assistant|>' },
    seps: ['<|end|>\n'],
    role_content_sep: '\n',
    role_empty_sep: '\n',
    system_prefix_token_ids: [1],
    stop_str: ['<|endoftext|>'],
    stop_token_ids: [2, 32000, 32001, 32007],
  },
  'phi-4': {
    name: 'phi-4',
    system_template: '<|system|>\n{system_message}',
    system_message:
      'You are a helpful digital assistant. Please provide safe, ethical and accurate information to the user.',
    roles: { user: '<|user|>', assistant: '<|assistant|>' },
    seps: ['<|end|>\n'],
    role_content_sep: '\n',
    role_empty_sep: '\n',
    system_prefix_token_ids: [200022], // mlc-llm's comment: <|system|>
    stop_str: ['<|endoftext|>', '<|end|>'],
    stop_token_ids: [199999, 200020],
  },
} satisfies Record<string, Record<string, unknown>>;

const withTemplate = (conv_template: Record<string, unknown>): ChatConfigLike => ({
  context_window_size: 4096,
  conv_template: { function_string: '', use_function_calling: false, ...conv_template },
});

/** A prebuilt model of each family web-llm serves, with the chat config its build is taken to carry. */
export const familyChatConfigs = {
  'Qwen2.5-0.5B-Instruct-q4f32_1-MLC': qwen3ChatConfig, // "qwen2" as well
  [QWEN3_MODEL_ID]: qwen3ChatConfig,
  'Llama-3.2-1B-Instruct-q4f32_1-MLC': withTemplate(convTemplates['llama-3_1']),
  'Llama-3-8B-Instruct-q4f32_1-MLC': withTemplate(convTemplates['llama-3']),
  'Hermes-3-Llama-3.2-3B-q4f32_1-MLC': hermes3ChatConfig,
  'SmolLM2-360M-Instruct-q4f32_1-MLC': withTemplate(convTemplates.chatml),
  'gemma-2-2b-it-q4f32_1-MLC': withTemplate(convTemplates.gemma_instruction),
  'gemma3-1b-it-q4f16_1-MLC': withTemplate(convTemplates.gemma3_instruction),
  'Phi-3.5-mini-instruct-q4f32_1-MLC': withTemplate(convTemplates['phi-3']),
  'Phi-4-mini-instruct-q4f32_1-MLC': withTemplate(convTemplates['phi-4']),
} satisfies Record<string, ChatConfigLike>;
