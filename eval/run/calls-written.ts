/**
 * The calls in a model's text as our readers find them (every family's
 * markup, a bare {"name": …, "arguments": …}, any name accepted), whether or
 * not they were offered or run: what a free-decoding arm wrote
 * (unconstrained.ts), or a call a reply shows a visitor as text (the page suite).
 */
import { OUTPUT_VOCABULARY } from '../../src/model/formats/output-vocabulary';
import { readModelOutput } from '../../src/model/readers/read-model-output';
import type { ModelCall } from '../bfcl/types';

export function callsWritten(raw: string): { calls: ModelCall[]; unread: number } {
  // 'stop': what matters is what was written; a call cut off before its JSON closed is not read either way.
  const output = readModelOutput(raw, { vocabulary: OUTPUT_VOCABULARY, finishReason: 'stop' });
  return { calls: output.calls.map((call) => ({ name: call.name, args: call.args })), unread: output.errors.length };
}
