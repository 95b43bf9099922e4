/**
 * Whether a call waits for a person, and what the log already says about it.
 * Decisions live in the event log, so a pause survives a reload.
 */
import type { AgentEvent, FunctionCall } from '../session/event';
import type { ToolDeclaration } from '../tools/declaration';
import type { FlowHooks } from './types';

export async function isApprovalNeeded(
  declaration: ToolDeclaration | undefined,
  call: FunctionCall,
  hooks: FlowHooks,
): Promise<boolean> {
  if (!declaration || declaration.source === 'builtin') return false;
  if (declaration.needsApproval === 'dynamic') return hooks.needsApproval(call.name, call.args);
  return declaration.needsApproval;
}

export interface Decision {
  granted: boolean;
  reason?: string;
}

/** The decision recorded for a call, if any (the latest wins). */
export function decisionFor(history: readonly AgentEvent[], callId: string): Decision | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const approval = history[i]!.actions?.approval;
    if (approval?.callId === callId) return { granted: approval.granted, reason: approval.reason };
  }
  return undefined;
}

/**
 * The open approval request, if the session is paused on one: the calls it
 * asks about, the model event that made them, and the invocation to continue.
 */
export function openApprovalRequest(
  history: readonly AgentEvent[],
): { request: AgentEvent; modelEvent: AgentEvent; undecided: string[] } | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.content?.role === 'tool' && !event.late) return undefined;
    const asked = event.actions?.requestApproval;
    if (!asked) continue;
    let modelEvent: AgentEvent | undefined;
    for (let j = i - 1; j >= 0; j--) {
      if (history[j]!.content?.role === 'model') {
        modelEvent = history[j];
        break;
      }
    }
    if (!modelEvent) return undefined;
    const undecided = asked.map((call) => call.callId).filter((id) => !decisionFor(history.slice(i), id));
    return { request: event, modelEvent, undecided };
  }
  return undefined;
}
