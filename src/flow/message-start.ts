/**
 * A run started by a new message. Calls still waiting for approval are
 * rejected first, so nothing runs behind the person's back; a message sent
 * again after a crash but stored after all starts nothing.
 */
import type { AgentEvent } from '../session/event';
import { functionCalls } from '../session/parts';
import { openApproval, type OpenApproval } from '../session/open-approval';
import type { EventDraft, RunStart } from './types';

export function messageStart(history: readonly AgentEvent[], text: string, messageId: string): RunStart {
  if (history.some((event) => event.id === messageId)) return { kind: 'nothing' };
  const open = openApproval(history);
  return { kind: 'user', text, messageId, before: open ? supersede(open) : undefined };
}

/**
 * A new message while calls still wait for approval moves on without them:
 * each undecided call is rejected and every call of that turn is answered, so
 * the history stays well formed and nothing runs behind the person's back.
 */
function supersede(open: OpenApproval): EventDraft[] {
  const reason = 'the user sent a new message instead of deciding';
  const decisions: EventDraft[] = open.undecided.map((callId) => ({
    author: 'user',
    actions: { approval: { callId, granted: false, reason } },
  }));
  const responses: EventDraft = {
    author: open.modelEvent.author,
    content: {
      role: 'tool',
      parts: functionCalls(open.modelEvent).map((call) => ({
        functionResponse: { id: call.id, name: call.name, response: null, error: `Not run: ${reason}.` },
      })),
    },
  };
  return [...decisions, responses];
}
