/** The dedicated worker's entry (dist/inpage-agent.worker.js): one AgentHost, exposed through comlink. */
import * as Comlink from 'comlink';
import { AgentHost } from './agent-host';
import { installErrorTransfer } from '../contract/error-transfer';

installErrorTransfer();
Comlink.expose(new AgentHost());
