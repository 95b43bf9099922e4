/**
 * llama.cpp may refuse the token that completes a lazy grammar's trigger (its last token carried text the
 * grammar does not allow: "Unexpected empty grammar stack"). The step then goes on once from the text so
 * far, under a grammar that holds every token from there; a second refusal fails the step.
 */
import type { ModelDelta } from '../../engine';
import { ANY_TEXT_GBNF, structuralTagToGbnf } from '../../gbnf/structural-tag-gbnf';
import type { Failure } from './wllama-log';
import { grammarParams, type CompletionParams, type WllamaRequestPlan } from './wllama-request';

export interface StrictGoOn {
  /** The step's parameters with the strict grammar in place of the lazy one. */
  params: CompletionParams;
  notice: Extract<ModelDelta, { type: 'notice' }>;
}

/**
 * How the step goes on after a refused trigger: under the strict grammar from `raw`, the step's output so
 * far. Undefined for any other failure, when the step went on strictly once already, or when no grammar
 * can be written from there.
 */
export function goOnUnderStrictGrammar(
  failure: Failure,
  plan: WllamaRequestPlan,
  raw: string,
  strictAlready: boolean,
): StrictGoOn | undefined {
  if (strictAlready || failure.recovery !== 'strict-grammar') return undefined;
  const stricter = strictGrammar(plan, raw);
  if (!stricter) return undefined;
  return {
    params: { ...plan.params, grammar_lazy: undefined, grammar_triggers: undefined, ...stricter },
    notice: {
      type: 'notice',
      code: 'grammar-strict',
      message: `${failure.error.message}. The step went on from there under a grammar that holds every token.`,
    },
  };
}

/** The grammar to go on under: the step's, constrained from the text so far; or any whole characters without tools. */
function strictGrammar(plan: WllamaRequestPlan, raw: string): Partial<CompletionParams> | undefined {
  if (!plan.structuralTag) return { grammar: ANY_TEXT_GBNF };
  try {
    return grammarParams(structuralTagToGbnf(plan.structuralTag, { full: true, after: raw }));
  } catch {
    return undefined;
  }
}
