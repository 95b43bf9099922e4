/**
 * Call or answer, decided before a request's first step writes anything,
 * and the step then held to it (its tool choice):
 *
 * - a request that names a tool's action ("sort the products", asked-actions.ts)
 *   is held to a call of that tool (or of those tools);
 * - a request that shares no word with any tool, in a session that has not
 *   called one, is held to words (outside-tools.ts);
 * - else the model's own odds of opening with a call (ModelEngine.callChance)
 *   decide: at least CALL_AT_LEAST, a call; below, words. Greedy decoding
 *   takes the likelier opening anyway; held to it, a step that opens in words
 *   no longer writes a call after them (Qwen2.5-Coder 0.5B did on BFCL's
 *   irrelevance cases, "To find…" and then a call), nor does one that opens
 *   with a call end it in prose.
 *
 * Only the first step of a request (its last message is the person's):
 * after results, the round rules and the offer of more calls decide. An
 * engine without callChance decides as it writes.
 */
import { emitPartial } from '../record';
import { requestOf } from '../request-processors/step-request';
import type { RequestProcessor, StepRequest } from '../types';
import { askedActions } from './asked-actions';
import { outsideTools } from './outside-tools';

/** The model's chance of opening with a call at which the step is held to one. */
const CALL_AT_LEAST = 0.65;

export const decideCallProcessor: RequestProcessor = async (inv, step) => {
  const { redo } = inv.run;
  if (redo) {
    inv.run.redo = undefined;
    holdToCall(step, redo.tools, 'claim');
    step.decision = { ...step.decision!, claimed: redo.claimed };
    return;
  }
  if (!inv.decisions?.callOrAnswer || step.toolChoice) return;
  const last = step.messages.at(-1);
  if (last?.role !== 'user') return;
  const offered = new Set(step.allowedTools ?? step.tools.map((tool) => tool.name));
  const tools = step.tools.filter((tool) => offered.has(tool.name));
  if (!tools.length) return;
  const asked = askedActions(last.content, tools);
  if (asked.length) return holdToCall(step, asked, 'asked');
  if (outsideTools(last.content, tools, inv.history)) {
    step.toolChoice = 'none';
    step.decision = { held: 'answer', by: 'words' };
    return;
  }
  if (!inv.engine.callChance) return;
  const { chance, ms, usage } = await inv.engine.callChance(requestOf(step), inv.signal, (read) =>
    emitPartial(inv, { author: step.agent.name, promptRead: read }),
  );
  const held = chance >= CALL_AT_LEAST ? 'call' : 'answer';
  step.toolChoice = held === 'call' ? 'required' : 'none';
  step.decision = { held, by: 'chance', chance, ms };
  if (usage) step.decisionUsage = usage;
};

function holdToCall(step: StepRequest, asked: string[], by: 'asked' | 'claim'): void {
  if (asked.length === 1) step.toolChoice = { name: asked[0]! };
  else {
    step.toolChoice = 'required';
    step.allowedTools = asked;
  }
  step.decision = { held: 'call', by, tools: asked };
}
