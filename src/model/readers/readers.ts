/**
 * Every reader, whatever the model: small models drift into other families'
 * formats, so each output is read for all of them. The scan takes the
 * leftmost marker; at the same place, the earlier reader in this list wins.
 */
import type { CallReader } from './call-reader';
import { END_OF_TURN_TOKENS } from '../families';
import { gemma4CallReader } from '../formats/gemma4';
import { fencedBlockReader } from '../formats/gemma-tool-code';
import { functionNameReader, toolCallTagReader, toolTagReader } from '../formats/hermes';
import { bareJsonReader, pythonicListReader, pythonTagReader } from '../formats/llama3-json';
import { toolCallsReader } from '../formats/mistral';
import { functoolsReader } from '../formats/phi4-functools';
import { functionEqualsReader } from '../formats/qwen-xml';

export const CALL_READERS: readonly CallReader[] = [
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

/** Tokens that end a model's turn in the chat templates we know; nothing after one belongs to the turn. */
export const END_OF_TURN = END_OF_TURN_TOKENS;
