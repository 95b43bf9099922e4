// Errors as a person reads them: what happened and what to do, in plain words, in the demo's terms (demo
// mode, the model picker's Load). The chat shows them (its strings.errors); the model panel too. The code and
// the library's own message stay one click away, under "Details".
const WORDS: Record<string, string> = {
  aborted: 'Stopped.',
  'webgpu-unavailable': 'This browser has no WebGPU, so no local model can run here. Demo mode still works.',
  'shader-f16-missing': 'This graphics chip cannot run that model. Pick one marked “works here”.',
  'model-not-found': 'That model is not available. Pick another one.',
  'download-failed': 'The model could not be downloaded. Check your connection, then press Load to try again.',
  'out-of-memory': 'The model does not fit in this device’s memory. Pick a smaller one.',
  'model-invalid': 'That file is not a model this page can run. Pick another one.',
  'wasm-unsupported': 'This browser is too old to run a model on its CPU. Update it, or keep demo mode.',
  'csp-blocked': 'This page’s security settings do not let a model run here. Demo mode still works.',
  'device-lost': 'The graphics chip stopped responding. Press Load to start the model again.',
  'model-failed': 'The model stopped with an error. Try again, or start a new session.',
  'context-overflow': 'This conversation is too long for the model. Start a new session.',
  'max-steps': 'The agent took too many steps without finishing, so it stopped.',
  'max-tool-calls': 'The agent asked for too many actions at once, so it stopped.',
  'session-busy': 'This conversation is running in another tab. Wait for it there, or start a new session here.',
  'storage-unavailable': 'This browser does not let the page save, so this conversation is kept only until you leave.',
  'quota-exceeded': 'The browser’s storage for this page is full. Delete old sessions to make room.',
  'worker-crashed': 'The agent stopped unexpectedly and was restarted. Your conversation is kept.',
  'import-invalid': 'That file is not a session this page can open.',
  'callback-failed': 'Something on this page failed while the agent worked.',
};

/** The chat's error words in the demo. */
export const DEMO_ERRORS = { ...WORDS, unknown: 'Something went wrong.' };

export interface FriendlyError {
  text: string;
  details: string;
}

export function friendlyError(error: { code?: string; message: string }): FriendlyError {
  const code = error.code ?? 'error';
  return { text: WORDS[code] ?? 'Something went wrong.', details: `${code}: ${error.message}` };
}
