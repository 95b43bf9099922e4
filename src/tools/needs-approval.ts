/**
 * Whether a call of a tool waits for a person: the tool's own rule (true,
 * false, or a function of the arguments its schema parsed), and without one,
 * the safe default for actions a person may regret: a destructive tool asks.
 * The worker reads the rule from the declaration; a function cannot cross to
 * it, so the page applies that one per call (see approval-gate.ts).
 */
import type { ToolDeclaration } from './declaration';
import type { Tool } from './define-tool';

/** The rule as a declaration carries it: 'dynamic' when the page decides per call. */
export function approvalRule(tool: Tool): ToolDeclaration['needsApproval'] {
  if (typeof tool.needsApproval === 'function') return 'dynamic';
  if (typeof tool.needsApproval === 'boolean') return tool.needsApproval;
  return tool.annotations.destructive === true;
}

/** The rule applied to one call's parsed arguments. */
export function needsApproval(tool: Tool, args: unknown): boolean {
  const rule = tool.needsApproval;
  if (typeof rule !== 'function') return approvalRule(tool) === true;
  try {
    return Boolean(rule(args));
  } catch {
    // A rule that cannot decide asks: the safe side for a tool that needs approval at all.
    return true;
  }
}
