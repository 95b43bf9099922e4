/**
 * Everything one step needs to call tools in a family's format: the grammar
 * web-llm decodes under (`response_format`), the names the step may call, and
 * the reader of the output. The grammar narrows to the allowed tools and the
 * tool choice; the prompt (format.describeTools) never changes between steps.
 *
 * planToolCalls is the stable entry point other parts of the project (and the
 * grammar proof) build on: the same format name, tools and choice always give
 * the same grammar and reader.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import type { FinishReason, ToolChoice } from '../engine';
import { readModelOutput, type ModelOutput } from '../readers/read-model-output';
import { argumentsSupport } from '../grammar/grammar-support';
import { toolFormatNamed } from './registry';
import type { StructuralTag } from '../grammar/structural-tag';
import type { ToolFormat, ToolFormatName } from './tool-format';
import { OUTPUT_VOCABULARY } from './output-vocabulary';

export interface ToolCallPlanOptions {
  /** Names the grammar may allow in this step (a subset of the tools). Absent: all. */
  allowedTools?: readonly string[];
  toolChoice?: ToolChoice;
  /** Tools to constrain by name only, e.g. after the grammar engine refused their schemas. */
  relaxed?: ReadonlySet<string>;
  /** Hold calls written without the family's tag too (GrammarStep.bareCalls). */
  bareCalls?: boolean;
}

export interface ToolCallPlan {
  format: ToolFormat;
  /** web-llm's `response_format`; absent when the step allows no call (toolChoice 'none', nothing allowed). */
  responseFormat?: { type: 'structural_tag'; structural_tag: StructuralTag };
  /** The names a call may use in this step. */
  allowed: string[];
  /** Tools constrained by name only, with the reason; the engine reports them in a notice. */
  relaxed: Map<string, string>;
  /**
   * What the grammar leaves to the validator, by tool (long length bounds,
   * multipleOf, uniqueItems…; ebnf-arguments.ts): a call may break it, and
   * validation after generation answers the model with what to fix.
   */
  loosened: Map<string, readonly string[]>;
  read(output: string, finishReason?: FinishReason): ModelOutput;
}

export function planToolCalls(
  format: ToolFormat | ToolFormatName,
  tools: readonly ToolDeclaration[],
  options: ToolCallPlanOptions = {},
): ToolCallPlan {
  const resolved = typeof format === 'string' ? toolFormatNamed(format) : format;
  const allowed = allowedNames(tools, options);
  const relaxed = new Map<string, string>();
  const loosened = new Map<string, readonly string[]>();
  for (const tool of tools) {
    if (!allowed.includes(tool.name)) continue;
    if (options.relaxed?.has(tool.name)) {
      relaxed.set(tool.name, 'the grammar engine could not compile its schema');
      continue;
    }
    const support = argumentsSupport(tool.parameters, resolved.argumentSyntax);
    if (support.unsupported) relaxed.set(tool.name, support.unsupported);
    else if (support.loosened.length) loosened.set(tool.name, support.loosened);
  }
  const required = options.toolChoice === 'required' || typeof options.toolChoice === 'object';
  const stepTools = tools.filter((tool) => allowed.includes(tool.name));
  const responseFormat = stepTools.length
    ? {
        type: 'structural_tag' as const,
        structural_tag: {
          type: 'structural_tag' as const,
          format: resolved.grammar({
            tools: stepTools,
            required,
            relaxed: new Set(relaxed.keys()),
            ...(options.bareCalls && { bareCalls: true }),
          }),
        },
      }
    : undefined;
  return {
    format: resolved,
    responseFormat,
    allowed,
    relaxed,
    loosened,
    read: (output, finishReason) =>
      readModelOutput(output, {
        vocabulary: OUTPUT_VOCABULARY,
        tools,
        allowed,
        finishReason,
        example: resolved.example,
      }),
  };
}

/** The tools a step may call: declared, allowed, and the one the choice names. */
export function allowedNames(tools: readonly ToolDeclaration[], options: ToolCallPlanOptions): string[] {
  const choice = options.toolChoice;
  if (choice === 'none') return [];
  return tools
    .map((tool) => tool.name)
    .filter((name) => !options.allowedTools || options.allowedTools.includes(name))
    .filter((name) => typeof choice !== 'object' || choice.name === name);
}
