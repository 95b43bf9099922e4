// The boot benchmark's peer, page side: start a module worker and make one comlink round trip.
import * as Comlink from 'comlink';

export async function bareRoundTrip(workerUrl: string): Promise<number> {
  const start = performance.now();
  const worker = new Worker(workerUrl, { type: 'module' });
  const remote = Comlink.wrap<{ ping(): string }>(worker);
  await remote.ping();
  const ms = performance.now() - start;
  worker.terminate();
  return ms;
}
