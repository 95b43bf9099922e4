/** The session's events as the chat messages a model reads (history-to-messages.ts). */
import { historyToMessages } from '../history-to-messages';
import type { RequestProcessor } from '../types';

export const historyProcessor: RequestProcessor = (inv, request) => {
  request.messages.push(...historyToMessages(inv.history, inv.run.converted));
};
