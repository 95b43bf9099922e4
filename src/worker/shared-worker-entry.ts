/**
 * The SharedWorker entry (createAgent({ share: 'tabs' })): one AgentHost per
 * connecting tab, all sharing one engine pool, so the model loads once per
 * origin. Each tab's tools still run in that tab, through its own port.
 */
import * as Comlink from 'comlink';
import { AgentHost } from './agent-host';
import { EnginePool } from './engine-pool';
import { installErrorTransfer } from '../contract/error-transfer';

installErrorTransfer();
const engines = new EnginePool();
const scope = self as unknown as { onconnect: ((event: MessageEvent) => void) | null };
scope.onconnect = (event) => {
  const port = event.ports[0]!;
  Comlink.expose(new AgentHost(engines), port);
  port.start();
};
