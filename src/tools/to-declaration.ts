/**
 * toDeclaration: what the worker, the model and the toolkit graph know of a
 * tool. Everything in it survives structured cloning (postMessage, IndexedDB):
 * no zod schema, no function. The page keeps those.
 */
import type { ToolDeclaration } from './declaration';
import type { Tool } from './define-tool';
import { approvalRule } from './needs-approval';

export function toDeclaration(tool: Tool): ToolDeclaration {
  const declaration: ToolDeclaration = {
    name: tool.name,
    description: tool.description,
    ...(tool.whenToUse !== undefined && { whenToUse: tool.whenToUse }),
    ...(tool.displayName !== undefined && { displayName: tool.displayName }),
    ...(tool.displayDescription !== undefined && { displayDescription: tool.displayDescription }),
    // Copied, not shared: the worker's copy must not change with the page's.
    parameters: structuredClone(tool.schema.jsonParameters),
    ...(tool.schema.jsonReturns !== undefined && { returns: structuredClone(tool.schema.jsonReturns) }),
    annotations: { ...tool.annotations },
    needsApproval: approvalRule(tool),
    returnDirect: tool.returnDirect,
    longRunning: tool.longRunning,
    timeoutMs: tool.timeoutMs,
    source: tool.source,
  };
  return declaration;
}
