/**
 * One live agent per arm for a whole run: an arm whose model option stays
 * the same from case to case (a GGUF, a web-llm id) loads its model once; an
 * option that changes (the mechanics check scripts each case) closes the
 * arm's agent and opens another. Arms keep their own agents, since each
 * loads the model its own way.
 */
import type { ModelOptions } from '../../src/model/model-options';
import type { ArmName } from '../arms/arm';
import { armAgentOptions } from '../arms/arm-agent-options';
import { openCaseAgent, type CaseAgent } from './case-agent';

export class ArmAgents {
  private readonly live = new Map<ArmName, { key: string; agent: Promise<CaseAgent> }>();

  /** The arm's agent for this model option, opened if it has none or had another option. */
  async open(arm: ArmName, model: ModelOptions, signal?: AbortSignal): Promise<CaseAgent> {
    const key = JSON.stringify(model, (_, value: unknown) => (typeof value === 'function' ? undefined : value));
    const current = this.live.get(arm);
    // A scripted engine's turns are spent by the case it answered: the next case gets a new one even when its
    // script is the same (two irrelevance cases answered alike found the first one's engine exhausted).
    if (current?.key === key && model.engine !== 'scripted') return current.agent;
    if (current) await this.closeArm(arm);
    const agent = openCaseAgent(model, signal, armAgentOptions(arm));
    this.live.set(arm, { key, agent });
    // A start that failed is tried again for the next case.
    agent.catch(() => this.live.get(arm)?.agent === agent && this.live.delete(arm));
    return agent;
  }

  async close(): Promise<void> {
    await Promise.all([...this.live.keys()].map((arm) => this.closeArm(arm)));
  }

  private async closeArm(arm: ArmName): Promise<void> {
    const current = this.live.get(arm);
    this.live.delete(arm);
    await (await current?.agent.catch(() => undefined))?.close().catch(() => undefined);
  }
}
