/**
 * The parts of mlc-chat-config.json that web-llm's conversation code reads,
 * for the two models the prefill tests stand in for. Facts, not code: the
 * conversation templates are mlc-llm's (python/mlc_llm/conversation_template/
 * qwen2.py, which the prebuilt Qwen3 MLC builds name, and hermes.py's
 * "hermes3_llama-3_1"); web-llm reads them from each model's
 * mlc-chat-config.json as `conv_template`.
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
