/** The script-tag entry: the IIFE build sets window.InpageAgent to these names. */
export * from './index';

declare global {
  /** What inpage-agent.iife.js sets when it runs as a classic <script>. */
  var InpageAgent: typeof import('./index');
}
