/**
 * One case as the eval runs it, judged: one step of the arm's live agent, or a run through the loop in an agent
 * of its own (run.through). A failure is a result too.
 */
import { armAgentOptions } from '../arms/arm-agent-options';
import type { ArmAgents } from './arm-agents';
import { startFailure, type CaseRun } from './case-agent';
import { loopCase } from './case-loop';
import type { CaseResult } from './case-result';

export type { CaseRun };

export async function runCase(agents: ArmAgents, run: CaseRun): Promise<CaseResult> {
  try {
    if (run.through === 'loop') return await loopCase(run, armAgentOptions(run.arm));
    const agent = await agents.open(run.arm, run.model, run.signal);
    return await agent.step(run);
  } catch (error) {
    return startFailure(run, error);
  }
}
