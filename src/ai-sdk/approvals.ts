/**
 * What a chat's assistant message says about approvals. Our approval id is the
 * call's id (the runtime's, unique), so a response names the call it decides.
 */
import type { UIMessage } from 'ai';

export interface ApprovalResponse {
  callId: string;
  approved: boolean;
  reason?: string;
}

type ToolPart = {
  type: string;
  toolCallId: string;
  state: string;
  approval?: { id: string; approved?: boolean; reason?: string };
};

function toolParts(message: UIMessage): ToolPart[] {
  return message.parts.filter(
    (part): part is UIMessage['parts'][number] & ToolPart =>
      part.type.startsWith('tool-') || part.type === 'dynamic-tool',
  );
}

/** The decisions addToolApprovalResponse recorded in the message, in its order. */
export function approvalResponses(message: UIMessage): ApprovalResponse[] {
  return toolParts(message).flatMap((part) =>
    part.state === 'approval-responded' && part.approval
      ? [{ callId: part.approval.id, approved: part.approval.approved === true, reason: part.approval.reason }]
      : [],
  );
}

export function toolCallIds(message: UIMessage): string[] {
  return toolParts(message).map((part) => part.toolCallId);
}

/**
 * For useChat's `sendAutomaticallyWhen`: the last message is the assistant's,
 * a person answered at least one of its approval requests, and none is left
 * unanswered. Unlike the AI SDK's lastAssistantMessageIsCompleteWithApprovalResponses,
 * it does not wait for the turn's other calls: an agent's turn waits whole, so
 * those run only after the decisions are sent.
 */
export function approvalsDecided({ messages }: { messages: UIMessage[] }): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return false;
  const parts = toolParts(last);
  return (
    parts.some((part) => part.state === 'approval-responded') &&
    !parts.some((part) => part.state === 'approval-requested')
  );
}
