/**
 * What an arm changes in createAgent's options beyond its model, merged into
 * them wherever the eval starts an agent (BFCL's case agent, the page suite).
 * `ours-before` is today's loop beside the new one: once createAgent has the
 * switch that turns issue 50's decision layer off, it is this entry's one line.
 */
import type { AgentOptions } from '../../src/page/options';
import type { ArmName } from './arm';

export type ArmAgentOptions = Partial<Omit<AgentOptions, 'model'>>;

const ARM_AGENT_OPTIONS: Readonly<Partial<Record<ArmName, ArmAgentOptions>>> = {
  // Until the decision layer lands, today's loop is createAgent's default, so this arm runs as `ours` does.
  'ours-before': {},
};

export function armAgentOptions(arm: ArmName): ArmAgentOptions {
  return ARM_AGENT_OPTIONS[arm] ?? {};
}
