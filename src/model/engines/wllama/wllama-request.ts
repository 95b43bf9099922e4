/**
 * Our ModelRequest as a llama.cpp completion: the prompt written by the
 * model's own chat template, or by us in its family's markup for a model
 * without one (wllama-prompt.ts), earlier turns replayed as generated, and
 * the step's grammar in GBNF.
 *
 * The prompt depends on `request.tools` only; `allowedTools` and `toolChoice`
 * narrow the grammar. So each step's prompt extends the last one, and
 * llama.cpp's prefix cache keeps everything but the new tokens.
 *
 * The fields are llama.cpp's own (its server reads them; wllama hands them
 * on whether or not its types list them).
 */
import type { ToolDeclaration } from '../../../tools/declaration';
import type { ModelDelta, ModelRequest } from '../../engine';
import type { StructuralTagFormat, TagFormat } from '../../grammar/structural-tag';
import { allowedNames, planToolCalls } from '../../formats/tool-call-plan';
import type { ToolFormat } from '../../formats/tool-format';
import { structuralTagToGbnf, GbnfUnsupported, WORDS_GBNF, type GbnfGrammar } from '../../gbnf/structural-tag-gbnf';
import type { PromptWriter } from './wllama-prompt';
import { defaultMaxTokens } from '../default-max-tokens';
import { grammarTools } from '../grammar-tools';

/** llama.cpp's grammar trigger types (common_grammar_trigger_type): a word in the output. */
const TRIGGER_WORD = 1;

export interface WllamaStyle {
  format: ToolFormat;
  prompt: PromptWriter;
  contextWindow: number;
  /** Sampling the page did not set: the engine's defaults. */
  temperature: number;
  seed?: number;
  /** Each step ends with its first call (a model that would not end its turn by itself). */
  oneCall?: boolean;
  /** false: no grammar, the calls are read after generation. */
  grammar?: boolean;
}

export interface WllamaRequestPlan {
  prompt: string;
  /** Everything but the prompt: sampling, length, the grammar. */
  params: CompletionParams;
  tools: ToolDeclaration[];
  /** Names a call may use in this step. */
  toolNames: string[];
  /** How a call opens in this step (the grammar's triggers); none when the step may not call. */
  openers: string[];
  format: ToolFormat;
  /** The step's structural tag, to build a stricter grammar from if llama.cpp refuses a lazy trigger. */
  structuralTag?: StructuralTagFormat;
  notice?: Extract<ModelDelta, { type: 'notice' }>;
  /** Without a grammar: where in the next chunk of output (after `before`) the first call closes, if it does. */
  firstCallEnd?: (before: string, chunk: string) => number | undefined;
}

export interface CompletionParams {
  max_tokens: number;
  temperature: number;
  top_p?: number;
  seed?: number;
  cache_prompt: true;
  stop: string[];
  grammar?: string;
  grammar_lazy?: boolean;
  grammar_triggers?: { type: number; value: string }[];
  preserved_tokens?: string[];
}

export function toWllamaRequest(request: ModelRequest, style: WllamaStyle): WllamaRequestPlan {
  const { format } = style;
  const tools = request.tools;
  const choice = request.toolChoice ?? 'auto';
  const toolNames = allowedNames(tools, { allowedTools: request.allowedTools, toolChoice: choice });
  const system = systemOf(request);
  const sampling = request.sampling ?? {};
  const params: CompletionParams = {
    max_tokens: sampling.maxTokens ?? defaultMaxTokens(style.contextWindow),
    temperature: sampling.temperature ?? style.temperature,
    ...(sampling.topP !== undefined && { top_p: sampling.topP }),
    ...((sampling.seed ?? style.seed) !== undefined && { seed: sampling.seed ?? style.seed }),
    cache_prompt: true,
    stop: style.prompt.stops,
  };
  // A step of a run with tools that may call none of them answers in words (the step after the run's last round of calls).
  const answers = tools.length > 0 && !toolNames.length;
  const plan: WllamaRequestPlan = {
    prompt: style.prompt.write({ system, tools, messages: request.messages, answers }),
    params,
    tools: [...tools],
    toolNames,
    openers: [],
    format,
  };
  if (answers && style.grammar !== false) Object.assign(params, { grammar: WORDS_GBNF });
  if (!tools.length || !toolNames.length) return plan;

  const toolPlan = planToolCalls(format, grammarTools(request), {
    allowedTools: request.allowedTools,
    toolChoice: choice,
    bareCalls: true,
  });
  const planned = toolPlan.responseFormat?.structural_tag.format;
  if (!planned) return plan;
  if (planned.type === 'triggered_tags') plan.openers = planned.triggers;
  if (style.grammar === false) {
    if (planned.type === 'triggered_tags') plan.firstCallEnd = firstCallEnd(planned.triggers, planned.tags);
    return plan;
  }
  const structuralTag =
    style.oneCall && planned.type === 'triggered_tags' ? { ...planned, stop_after_first: true } : planned;
  // A step that may answer or call is held from its first token: it opens with a call or with words, never
  // with JSON that is not a call (a small model's echo of a tool's result) or with nothing.
  const free = structuralTag.type === 'triggered_tags' && !structuralTag.at_least_one;
  let grammar: GbnfGrammar;
  try {
    grammar = structuralTagToGbnf(structuralTag, free ? { full: true, wordsOrCall: true } : {});
  } catch (error) {
    if (!(error instanceof GbnfUnsupported)) throw error;
    plan.notice = {
      type: 'notice',
      code: 'grammar-fallback',
      message: `This step's grammar has no llama.cpp form (${error.message}); its calls are read and validated after generation.`,
    };
    return plan;
  }
  Object.assign(params, grammarParams(grammar));
  plan.structuralTag = structuralTag;
  if (toolPlan.relaxed.size)
    plan.notice = {
      type: 'notice',
      code: 'grammar-fallback',
      message: `The grammar cannot hold the argument schema of ${[...toolPlan.relaxed].map(([name, why]) => `${name} (${why})`).join('; ')}: calls to it are constrained to its name only, and their arguments are validated after generation.`,
    };
  return plan;
}

/** The request's system messages as one system text, as the prompt writers take it. */
export function systemOf(request: ModelRequest): string {
  return request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
}

/**
 * Finds, chunk by chunk, where the first call closes: a trigger, then the closing marker of a call's tag
 * (its end without the brackets that close the arguments: ')\n```' closes at '```'). Each chunk is
 * searched with only the few characters before it.
 */
function firstCallEnd(triggers: string[], tags: TagFormat[]): (before: string, chunk: string) => number | undefined {
  const closers = [...new Set(tags.map((tag) => tag.end.replace(/^[\s)\]}]+/, '') || tag.end))];
  const keep = Math.max(...triggers.map((t) => t.length), ...closers.map((c) => c.length));
  let openedAt = -1;
  const earliest = (text: string, marks: string[], from: number) =>
    marks
      .map((mark) => ({ at: text.indexOf(mark, from), mark }))
      .filter(({ at }) => at !== -1)
      .sort((a, b) => a.at - b.at)[0];
  return (before, chunk) => {
    const tail = before.slice(-keep);
    const window = tail + chunk;
    const offset = before.length - tail.length;
    if (openedAt === -1) {
      const trigger = earliest(window, triggers, 0);
      if (!trigger) return undefined;
      openedAt = offset + trigger.at + trigger.mark.length;
    }
    const closer = earliest(window, closers, Math.max(0, openedAt - offset));
    return closer ? offset + closer.at + closer.mark.length - before.length : undefined;
  };
}

/** llama.cpp's fields for a GBNF grammar: lazy ones start at a trigger word. */
export function grammarParams(
  grammar: GbnfGrammar,
): Pick<CompletionParams, 'grammar' | 'grammar_lazy' | 'grammar_triggers' | 'preserved_tokens'> {
  return {
    grammar: grammar.grammar,
    ...(grammar.lazy && {
      grammar_lazy: true,
      grammar_triggers: grammar.triggers.map((value) => ({ type: TRIGGER_WORD, value })),
    }),
    preserved_tokens: grammar.preservedTokens,
  };
}
