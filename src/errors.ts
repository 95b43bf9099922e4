/**
 * Every error that reaches a page is an AgentError: a stable `code` a program
 * can switch on, and a message that tells a person what to do next.
 * It lives at the root of `src` because every folder raises it.
 */
export type AgentErrorCode =
  // model
  | 'webgpu-unavailable'
  | 'shader-f16-missing'
  | 'model-not-found'
  | 'download-failed'
  | 'model-lib-invalid'
  | 'model-invalid'
  | 'wasm-unsupported'
  | 'csp-blocked'
  | 'device-lost'
  | 'out-of-memory'
  | 'model-failed'
  /** llama.cpp's own worker (inside the agent's worker) died; the engine loads the model again by itself. */
  | 'model-crashed'
  | 'script-exhausted'
  | 'context-overflow'
  // tools
  | 'invalid-tool'
  | 'unknown-tool'
  | 'invalid-arguments'
  | 'tool-failed'
  | 'tool-timeout'
  | 'tool-result-not-cloneable'
  | 'tool-result-too-large'
  | 'tool-result-not-json'
  | 'tool-rejected'
  /** A call the model wrote that could not be read as a call of a tool. */
  | 'unreadable-call'
  /** A call of a tool the step does not allow (the toolkit's recommendation, the run's tool choice). */
  | 'tool-not-allowed'
  | 'callback-failed'
  // runs
  | 'aborted'
  | 'max-steps'
  | 'max-tool-calls'
  | 'repeated-call'
  | 'session-busy'
  | 'not-pending'
  | 'approval-not-pending'
  // storage
  | 'storage-unavailable'
  | 'storage-blocked'
  | 'storage-closed'
  | 'quota-exceeded'
  | 'session-not-found'
  | 'import-invalid'
  | 'toolkit-invalid'
  // embedding
  | 'worker-crashed'
  | 'worker-failed'
  | 'closed'
  | 'port-refused'
  | 'invalid-options'
  // what an interface offers that the runtime cannot do (e.g. an AI SDK file input)
  | 'unsupported';

export interface AgentErrorData {
  code: AgentErrorCode;
  message: string;
  details?: unknown;
}

export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: AgentErrorCode;
  readonly details?: unknown;

  constructor(code: AgentErrorCode, message: string, options: { cause?: unknown; details?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
  }

  toJSON(): AgentErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  /** Rebuilds an AgentError from its plain (structured-clone) form. */
  static fromJSON(data: AgentErrorData): AgentError {
    return new AgentError(data.code, data.message, { details: data.details });
  }
}

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}

/**
 * The agent's line is gone: its worker crashed, or the agent was closed.
 * Nothing a run does can be answered any more, so every layer lets this
 * error through untouched instead of turning it into a run's error.
 */
export function isAgentGone(error: unknown): error is AgentError {
  return error instanceof AgentError && (error.code === 'worker-crashed' || error.code === 'closed');
}

/** What a stopped run says, wherever it notices the stop (the loop, a callback, a tool, the scripted engine). */
export function runAbortedError(): AgentError {
  return new AgentError('aborted', 'The run was aborted.');
}

/** The message of anything thrown, without assuming it is an Error. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
