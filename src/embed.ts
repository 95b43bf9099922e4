/** The script-tag entry: the IIFE build sets window.InpageAgent to these names, and defines <inpage-agent-chat>. */
export * from './index';
export { InpageAgentChat } from './chat/index';

declare global {
  /** What inpage-agent.iife.js sets when it runs as a classic <script>. */
  var InpageAgent: typeof import('./index') & typeof import('./chat/index');
}
