/**
 * comlink sends a thrown Error as { name, message, stack } and loses our
 * `code`. This handler keeps AgentError whole across the boundary; install it
 * on both sides (worker entry and page client).
 */
import * as Comlink from 'comlink';
import { AgentError, type AgentErrorData } from '../errors';

interface WireError {
  isError: boolean;
  value: { name?: string; message?: string; stack?: string; code?: string; details?: unknown } | unknown;
}

let installed = false;

export function installErrorTransfer(): void {
  if (installed) return;
  installed = true;
  const original = Comlink.transferHandlers.get('throw')!;
  Comlink.transferHandlers.set('throw', {
    canHandle: original.canHandle,
    serialize(thrown: unknown): [WireError, Transferable[]] {
      const value = (thrown as { value: unknown }).value;
      if (value instanceof AgentError) {
        return [{ isError: true, value: { name: 'AgentError', ...value.toJSON(), stack: value.stack } }, []];
      }
      if (value instanceof Error) {
        return [{ isError: true, value: { name: value.name, message: value.message, stack: value.stack } }, []];
      }
      // Plain strings and objects (web-llm rejects with strings through workers) cross as they are.
      return original.serialize(thrown) as [WireError, Transferable[]];
    },
    deserialize(wire: unknown): never {
      const { isError, value } = wire as WireError;
      if (
        isError &&
        value &&
        typeof value === 'object' &&
        'code' in value &&
        (value as { name?: string }).name === 'AgentError'
      ) {
        throw AgentError.fromJSON(value as AgentErrorData);
      }
      return original.deserialize(wire) as never;
    },
  });
}
