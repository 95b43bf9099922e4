/**
 * The agent's real worker, plus a kill switch for tests: a message on the
 * BroadcastChannel named by this worker's `?kill=` parameter closes it at
 * once, as a crash would (its Web Locks are released, its pending work is
 * dropped). Product code has no such hook; tests pass this file as workerUrl.
 */
import '../../src/worker/worker-entry';

// Vitest wraps the dynamic imports of the code it serves (an engine's lazy chunk) in a helper it defines only in
// workers it recognises by their literal new URL(…); this one is started by a URL built at run time.
(globalThis as { __vitest_browser_runner__?: unknown }).__vitest_browser_runner__ ??= {
  wrapDynamicImport: (load: () => unknown) => load(),
};

const name = new URL(self.location.href).searchParams.get('kill');
// Held in a global: an unreferenced channel may be collected, and its listener with it.
const killSwitch = name ? new BroadcastChannel(name) : undefined;
if (killSwitch) killSwitch.onmessage = () => self.close();
(self as unknown as { killSwitch?: BroadcastChannel }).killSwitch = killSwitch;
