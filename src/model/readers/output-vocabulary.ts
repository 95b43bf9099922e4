/**
 * What any model's output may hold besides prose, as the readers are given
 * it: the readers of every family's calls, the reasoning blocks, the tokens
 * that end a turn. formats/output-vocabulary.ts assembles it from the
 * formats and families; nothing in readers/ knows a family.
 */
import type { CallReader } from './call-reader';

export interface OutputVocabulary {
  /** The scan takes the leftmost marker; at the same place, the earlier reader wins. */
  readonly readers: readonly CallReader[];
  /** Reasoning blocks: shown and stored as reasoning, never read for calls. */
  readonly reasoning: readonly { open: string; close: string }[];
  /** Tokens that end a model's turn; nothing after one belongs to the turn. */
  readonly endOfTurn: readonly string[];
}
