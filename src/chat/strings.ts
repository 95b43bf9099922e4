/**
 * Every word the chat shows or says to a screen reader, in one object a page
 * replaces part of (`chat.strings = { send: 'Enviar' }`): the rest keep
 * these. Errors are by their stable code; one the page gives no words for
 * reads `errors.unknown`, with the code and the library's message one click
 * away under `details`.
 */
export interface ChatStrings {
  /** The message box's placeholder and its label. */
  placeholder: string;
  promptLabel: string;
  send: string;
  stop: string;
  /** The button back to the newest message, once the visitor scrolled up. */
  newest: string;
  /** The conversation's name for assistive technology. */
  conversation: string;
  reasoning: string;
  copy: string;
  copied: string;
  copyLabel: string;
  retry: string;
  retryLabel: string;
  tryAgain: string;
  sendAgainLabel: string;
  details: string;
  argumentsAndResult: string;
  argumentsLabel: string;
  resultLabel: string;
  allow: string;
  deny: string;
  askAgain: string;
  /** A call's card, by its state. */
  cardStates: {
    writing: string;
    running: string;
    approval: string;
    denied: string;
    failed: string;
    done: string;
    interrupted: string;
  };
  /** On a card that waits for the person: a destructive tool's, and another's that asks (a form's). */
  approvalNote: string;
  approvalQuestion: string;
  allowed: string;
  notAllowed: string;
  notAllowedNotRun: string;
  /** A call a reload cut off: one that waited for the person, one that ran. */
  interruptedAsked: string;
  interruptedRan: string;
  stopped: string;
  /** A run held to one step (a base model's) that ended after its call. */
  oneToolDone: string;
  /** The line that says what the agent does before anything else shows it. */
  working: {
    starting: string;
    readingRequest: string;
    readingAhead: string;
    resuming: string;
    readingResults: string;
  };
  /** Why a message was not sent. */
  notSent: {
    noAgent: string;
    stoppedBeforeReady: string;
    reloaded: string;
    failed: (why: string) => string;
  };
  /** The strip above the conversation while the model downloads or reads ahead. */
  downloading: (percent: number | undefined, text: string) => string;
  readingAheadStatus: (percent: number) => string;
  /** What a screen reader hears when a call waits for the person, and when a run ends on an error. */
  approvalAnnouncement: (name: string) => string;
  errors: Record<string, string> & { unknown: string };
}

export const defaultStrings: ChatStrings = {
  placeholder: 'Ask about this page…',
  promptLabel: 'Message the agent',
  send: 'Send',
  stop: 'Stop',
  newest: '↓ Newest',
  conversation: 'Conversation',
  reasoning: 'Reasoning',
  copy: 'Copy',
  copied: 'Copied',
  copyLabel: 'Copy this answer',
  retry: 'Retry',
  retryLabel: 'Ask this again',
  tryAgain: 'Try again',
  sendAgainLabel: 'Send this again',
  details: 'Details',
  argumentsAndResult: 'Arguments and result',
  argumentsLabel: 'Arguments',
  resultLabel: 'Result',
  allow: 'Allow',
  deny: 'Don’t allow',
  askAgain: 'Ask again',
  cardStates: {
    writing: 'Writing the call…',
    running: 'Running…',
    approval: 'Waiting for you',
    denied: 'Not allowed',
    failed: 'Failed',
    done: 'Done',
    interrupted: 'Not run',
  },
  approvalNote: 'This cannot be undone. Allow it?',
  approvalQuestion: 'Allow it?',
  allowed: 'Allowed.',
  notAllowed: 'You did not allow it.',
  notAllowedNotRun: 'You did not allow it, so it did not run.',
  interruptedAsked: 'Not run: the page was reloaded while this waited for your answer.',
  interruptedRan: 'Stopped: the page was reloaded while this ran. It was not run again.',
  stopped: 'Stopped.',
  oneToolDone: 'Done. This model runs one tool per request and does not reply.',
  working: {
    starting: 'Getting the model ready',
    readingRequest: 'Reading your request',
    readingAhead: 'Reading the instructions and tools first',
    resuming: 'Going on where the reload stopped',
    readingResults: 'Reading the results',
  },
  notSent: {
    noAgent: 'Not sent: the agent could not start. Reload the page, or try again.',
    stoppedBeforeReady: 'Not sent: you stopped it before the agent was ready.',
    reloaded: 'Not sent: the page was reloaded before the agent could take it.',
    failed: (why) => `Not sent: ${why}`,
  },
  downloading: (percent, text) => (percent === undefined ? text : `Downloading the model: ${percent}%`),
  readingAheadStatus: (percent) => `Reading the instructions and tools ahead: ${percent}%`,
  approvalAnnouncement: (name) => `“${name}” waits for you: allow it or not.`,
  errors: {
    unknown: 'Something went wrong.',
    aborted: 'Stopped.',
    'webgpu-unavailable': 'This browser has no WebGPU, so this model cannot run here.',
    'shader-f16-missing': 'This graphics chip cannot run this model.',
    'model-not-found': 'The model is not available.',
    'download-failed': 'The model could not be downloaded. Check your connection, then reload the page.',
    'out-of-memory': 'The model does not fit in this device’s memory.',
    'model-invalid': 'That file is not a model this page can run.',
    'wasm-unsupported': 'This browser is too old to run a model on its CPU. Update it.',
    'csp-blocked': 'This page’s security settings do not let a model run here.',
    'device-lost': 'The graphics chip stopped responding. Reload the page to start the model again.',
    'model-failed': 'The model stopped with an error. Try again.',
    'context-overflow': 'This conversation is too long for the model. Start a new one.',
    'max-steps': 'The agent took too many steps without finishing, so it stopped.',
    'max-tool-calls': 'The agent asked for too many actions at once, so it stopped.',
    'repeated-call': 'The agent repeated the same action, so it stopped.',
    'session-busy': 'This conversation is running in another tab. Wait for it there.',
    'storage-unavailable':
      'This browser does not let the page save, so this conversation is kept only until you leave.',
    'quota-exceeded': 'The browser’s storage for this page is full.',
    'worker-crashed': 'The agent stopped unexpectedly and was restarted. Your conversation is kept.',
    'callback-failed': 'Something on this page failed while the agent worked.',
  },
};

/** Strings with a page's replacements over the defaults (one level deep, as the groups are). */
export function mergeStrings(given: DeepPartial<ChatStrings> | undefined): ChatStrings {
  const merged = { ...defaultStrings } as Record<string, unknown>;
  for (const [key, value] of Object.entries(given ?? {})) {
    const base = merged[key];
    merged[key] =
      value && typeof value === 'object' && base && typeof base === 'object' ? { ...base, ...value } : value;
  }
  return merged as unknown as ChatStrings;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends (...args: never[]) => unknown ? T[K] : Partial<T[K]> };
