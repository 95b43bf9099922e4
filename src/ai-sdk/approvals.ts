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
 * For useChat's `sendAutomaticallyWhen`: an assistant message holds an answered
 * approval request and none left unanswered. Unlike the AI SDK's
 * lastAssistantMessageIsCompleteWithApprovalResponses it does not wait for the
 * turn's other calls (an agent's turn waits whole: they run after the
 * decision), and it looks past the last message: a request that a newer
 * message left behind was refused by then, and sending the answer shows so.
 */
export function approvalsDecided({ messages }: { messages: UIMessage[] }): boolean {
  return messages.some((message) => {
    if (message.role !== 'assistant') return false;
    const parts = toolParts(message);
    return (
      parts.some((part) => part.state === 'approval-responded') &&
      !parts.some((part) => part.state === 'approval-requested')
    );
  });
}
