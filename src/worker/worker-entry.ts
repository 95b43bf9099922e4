/**
 * The worker's entry (dist/inpage-agent.worker.js): one AgentHost exposed
 * through comlink, and a lifeline lock that lets the page notice our death.
 */
import * as Comlink from 'comlink';
import { AgentHost } from './agent-host';
import { installErrorTransfer } from './error-transfer';
import { holdLifeline } from './lifeline';

installErrorTransfer();
const host = new AgentHost();
Comlink.expose({
  init: host.init.bind(host),
  run: host.run.bind(host),
  abort: host.abort.bind(host),
  decideApproval: host.decideApproval.bind(host),
  resolveTool: host.resolveTool.bind(host),
  pendingApprovals: host.pendingApprovals.bind(host),
  registerTools: host.registerTools.bind(host),
  unregisterTool: host.unregisterTool.bind(host),
  listSessions: host.listSessions.bind(host),
  getSession: host.getSession.bind(host),
  deleteSession: host.deleteSession.bind(host),
  exportSession: host.exportSession.bind(host),
  importSession: host.importSession.bind(host),
  toolkitCall: host.toolkitCall.bind(host),
  modelCall: host.modelCall.bind(host),
  stats: host.stats.bind(host),
  close: host.close.bind(host),
  holdLifeline,
});
