/**
 * Every reader, whatever the model: small models drift into other families'
 * formats, so each output is read for all of them. The scan takes the
 * leftmost marker; at the same place, the earlier reader in this list wins.
 * The readers of readers/ are handed this vocabulary (OUTPUT_VOCABULARY).
 */
import { END_OF_TURN_TOKENS } from '../families';
import type { CallReader } from '../readers/call-reader';
import type { OutputVocabulary } from '../readers/output-vocabulary';
import { gemma4CallReader } from './gemma4';
import { fencedBlockReader } from './gemma-tool-code';
import { functionNameReader, toolCallTagReader, toolTagReader } from './hermes';
import { bareJsonReader, pythonicListReader, pythonTagReader } from './llama3-json';
import { toolCallsReader } from './mistral';
import { functoolsReader } from './phi4-functools';
import { functionEqualsReader } from './qwen-xml';

const CALL_READERS: readonly CallReader[] = [
  toolCallTagReader,
  functionEqualsReader,
  functionNameReader,
  toolTagReader,
  pythonTagReader,
  toolCallsReader,
  functoolsReader,
  gemma4CallReader,
  fencedBlockReader,
  bareJsonReader,
  pythonicListReader,
];

/** Reasoning blocks: shown and stored as reasoning, never read for calls. */
export const REASONING_BLOCKS: readonly { open: string; close: string }[] = [
  { open: '<think>', close: '</think>' },
  { open: '<|channel>thought', close: '<channel|>' },
  { open: '[THINK]', close: '[/THINK]' },
];

/** Tokens that end a model's turn in the chat templates we know (every family's); nothing after one belongs to the turn. */
export const END_OF_TURN = END_OF_TURN_TOKENS;

/** What the readers look for in any model's output. */
export const OUTPUT_VOCABULARY: OutputVocabulary = {
  readers: CALL_READERS,
  reasoning: REASONING_BLOCKS,
  endOfTurn: END_OF_TURN,
};
