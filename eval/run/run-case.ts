/** One case as the eval runs it: its agent, one step, judged, closed. A failure is a result too. */
import { openCase, startFailure, type CaseRun } from './case-agent';
import type { CaseResult } from './case-result';

export type { CaseRun };

export async function runCase(run: CaseRun): Promise<CaseResult> {
  let agent;
  try {
    agent = await openCase(run);
  } catch (error) {
    return startFailure(run, error);
  }
  try {
    return await agent.step();
  } catch (error) {
    return startFailure(run, error);
  } finally {
    await agent.close().catch(() => undefined);
  }
}
