/**
 * llama.cpp's state of a sequence (its KV cache and the tokens it holds), out of and back into the llama.cpp
 * that wllama runs: two actions of our WebAssembly build (wasm/glue/wllama-state.h) beside wllama's own,
 * sent through the same worker queue wllama's calls take. wllama's published build has neither action (it
 * aborts on an unknown one), so only an engine that loaded our build may call these. `wllama` is wllama's
 * Wllama (only wllama-engine.ts imports wllama itself).
 */
import { AgentError } from '../../../errors';

/** wllama's worker proxy, which its types keep private: one action of llama.cpp's, bytes in and bytes out. */
interface WorkerProxy {
  taskId: number;
  pushTask(task: { verb: 'wllama.action'; args: [string, Uint8Array]; callbackId: number }): Promise<Uint8Array>;
}

const REQUEST = 0x51545357; // "WSTQ"
const RESPONSE = 0x52545357; // "WSTR"

/** A sequence's state as llama.cpp saved it: its own file format, the tokens it holds first. */
export interface SequenceState {
  tokens: number;
  bytes: Uint8Array;
}

async function stateAction(wllama: object, action: string, payload: Uint8Array): Promise<SequenceState> {
  const proxy = (wllama as unknown as { proxy?: WorkerProxy }).proxy;
  if (!proxy)
    throw new AgentError('model-failed', 'No model is loaded: load one before saving or restoring its state.');
  const request = new Uint8Array(8 + payload.byteLength);
  const head = new DataView(request.buffer);
  head.setUint32(0, REQUEST, true);
  head.setUint32(4, payload.byteLength, true);
  request.set(payload, 8);
  const reply = await proxy.pushTask({ verb: 'wllama.action', args: [action, request], callbackId: proxy.taskId++ });
  const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
  if (reply.byteLength < 16 || view.getUint32(0, true) !== RESPONSE)
    throw new AgentError('model-failed', `llama.cpp's ${action} gave no answer of ours: is this build ours (wasm/)?`);
  const [status, tokens, size] = [view.getUint32(4, true), view.getUint32(8, true), view.getUint32(12, true)];
  const body = reply.subarray(16, 16 + size);
  if (status !== 0)
    throw new AgentError('model-failed', `llama.cpp refused the ${action}: ${new TextDecoder().decode(body)}`);
  return { tokens, bytes: body.slice() };
}

/** The state llama.cpp holds for the one sequence (slot 0) now: what it read and kept. */
export function saveSequenceState(wllama: object): Promise<SequenceState> {
  return stateAction(wllama, 'state_save', new Uint8Array(0));
}

/**
 * Puts a saved state back, so that the next completion whose prompt starts with its tokens reads only the rest.
 * llama.cpp checks the file's own header and that the state fits this model and context; a failure leaves the
 * sequence empty, and the prompt is then read again as usual. Resolves with the count of tokens restored.
 */
export async function restoreSequenceState(wllama: object, bytes: Uint8Array): Promise<number> {
  return (await stateAction(wllama, 'state_restore', bytes)).tokens;
}
