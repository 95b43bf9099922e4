/** One case as the eval runs it: the arm's live agent, one step, judged. A failure is a result too. */
import type { ArmAgents } from './arm-agents';
import { startFailure, type CaseRun } from './case-agent';
import type { CaseResult } from './case-result';

export type { CaseRun };

export async function runCase(agents: ArmAgents, run: CaseRun): Promise<CaseResult> {
  try {
    const agent = await agents.open(run.arm, run.model, run.signal);
    return await agent.step(run);
  } catch (error) {
    return startFailure(run, error);
  }
}
