/**
 * inpage-agent/chat: importing it defines <inpage-agent-chat> (chat-element.ts says what it does). The
 * script-tag build defines it too.
 */
import { InpageAgentChat } from './chat-element';

export { InpageAgentChat };
export { defaultStrings } from './strings';
export type { ChatStrings } from './strings';

// Defined once, whichever build got here first (the ESM entry and the script-tag build may share a page).
if (typeof customElements !== 'undefined' && !customElements.get('inpage-agent-chat'))
  customElements.define('inpage-agent-chat', InpageAgentChat);

declare global {
  interface HTMLElementTagNameMap {
    'inpage-agent-chat': InpageAgentChat;
  }
}
