/**
 * What a format's grammar is asked for in one step. grammar/ takes it as an
 * argument and knows no format or family (scripts/check-deps.mjs holds it so).
 */
import type { ToolDeclaration } from '../../tools/declaration';

/** The tools one step may call, as the grammar sees them. */
export interface GrammarStep {
  /** Declared and allowed in this step; never empty. */
  tools: readonly ToolDeclaration[];
  /** At least one call must be made ('required' or a named tool). */
  required: boolean;
  /** Tools whose argument schemas the grammar engine cannot compile: their arguments are left free (read and validated after generation). */
  relaxed: ReadonlySet<string>;
  /**
   * Also hold a call written without the family's tag, where the family's small models write one (a
   * bare `{"name": …, "arguments": …}` for Hermes): constrained like a tagged call instead of left free.
   */
  bareCalls?: boolean;
}
