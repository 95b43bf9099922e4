/** What a run keeps for itself from step to step, as it starts: nothing described, nothing converted, nothing counted. */
import { convertedHistory } from './history-to-messages';
import type { RunState } from './types';

export function newRunState(): RunState {
  return { descriptions: new Map(), converted: convertedHistory() };
}
