/**
 * What an arm changes in createAgent's options beyond its model, merged into
 * them wherever the eval starts an agent (BFCL's case agent, the page suite).
 * `ours-before` is the loop before issue 50's decision layer, beside the new
 * one (`ours`, createAgent's defaults); `ours-tools-that-fit` and
 * `ours-given-values` are the new one with that part on (each off by default;
 * until the parts were split, `ours-tools-that-fit` had both).
 */
import type { AgentOptions } from '../../src/page/options';
import type { ArmName } from './arm';

export type ArmAgentOptions = Partial<Omit<AgentOptions, 'model'>>;

const ARM_AGENT_OPTIONS: Readonly<Partial<Record<ArmName, ArmAgentOptions>>> = {
  'ours-before': { decisions: false },
  'ours-tools-that-fit': { decisions: { toolsThatFit: true } },
  'ours-given-values': { decisions: { givenValues: true } },
};

export function armAgentOptions(arm: ArmName): ArmAgentOptions {
  return ARM_AGENT_OPTIONS[arm] ?? {};
}
