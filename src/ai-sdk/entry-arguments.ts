/**
 * What the entries of inpage-agent/ai-sdk take, checked where they are called:
 * a page in plain JavaScript may pass anything, and a wrong shape must be the
 * `invalid-options` AgentError the rest of the API gives, saying what to pass,
 * not a TypeError from deep inside a later step. Only each entry's own
 * arguments are checked here; the fields of a model's options are
 * createAgent's, and its own check reads them when the model's agent starts.
 */
import type { ModelOptions } from '../model/model-options';
import { AgentError, type Agent } from '../index';

/** What both entries call on an agent; a real one has it all, whichever copy of the package made it. */
const AGENT_METHODS = [
  'generate',
  'run',
  'resume',
  'approve',
  'reject',
  'pendingApprovals',
  'addEventListener',
  'removeEventListener',
] as const;

function isAgent(value: unknown): value is Agent {
  if (typeof value !== 'object' || value === null) return false;
  const agent = value as Record<string, unknown>;
  return (
    AGENT_METHODS.every((name) => typeof agent[name] === 'function') &&
    typeof agent.sessionId === 'string' &&
    typeof (agent.sessions as { get?: unknown } | undefined)?.get === 'function'
  );
}

export function isModelOptions(value: unknown): value is ModelOptions {
  return isPlainObject(value) && typeof value.engine === 'string';
}

const MODEL_FORMS =
  "createAgent's model options ({ engine: 'webllm', modelId }, { engine: 'wllama', url }, { engine: 'scripted', turns } or { engine: 'module', url }) or an agent made by createAgent()";

export function checkModelArguments(model: unknown, settings: unknown): void {
  if (!isModelOptions(model) && !isAgent(model))
    throw invalid(`inpageModel(model) takes ${MODEL_FORMS}; it was given ${described(model)}.`);
  if (settings === undefined) return;
  const form = "an object such as { workerUrl: '/inpage-agent.worker.js' }, or left out";
  if (!isPlainObject(settings))
    throw invalid(`inpageModel(model, settings): settings must be ${form}; it was given ${described(settings)}.`);
  const unknown = Object.keys(settings).filter((key) => key !== 'workerUrl');
  if (unknown.length)
    throw invalid(
      `inpageModel(model, settings): ${unknown.join(', ')} ${unknown.length > 1 ? 'are not settings' : 'is not a setting'}; the one setting is where inpage-agent/worker is served: { workerUrl: '/inpage-agent.worker.js' }.`,
    );
  if (isAgent(model) && settings.workerUrl !== undefined)
    throw invalid(
      "inpageModel(agent, settings): a model made from an agent runs in that agent's worker, so { workerUrl } has nothing to set. Leave settings out, or give createAgent({ workerUrl }) where the agent is made.",
    );
}

const TRANSPORT_OPTIONS = "{ runOptions?: { ifBusy?: 'wait' | 'fail', toolChoice? } }, or left out";

export function checkTransportArguments(agent: unknown, options: unknown): void {
  if (!isAgent(agent))
    throw invalid(
      `inpageChatTransport(agent) takes an agent made by createAgent(); it was given ${described(agent)}.${
        isModelOptions(agent)
          ? ' A chat runs a whole agent: make one with createAgent({ model, tools }) and pass it.'
          : ''
      }`,
    );
  if (options === undefined) return;
  const say = (problem: string) => invalid(`inpageChatTransport(agent, options): ${problem}.`);
  if (!isPlainObject(options)) throw say(`options must be ${TRANSPORT_OPTIONS}; it was given ${described(options)}`);
  for (const key of Object.keys(options))
    if (key !== 'runOptions') throw say(`${key} is not an option; options must be ${TRANSPORT_OPTIONS}`);
  const { runOptions } = options;
  if (runOptions === undefined) return;
  if (!isPlainObject(runOptions))
    throw say(`runOptions must be { ifBusy?, toolChoice? }; it was given ${described(runOptions)}`);
  for (const key of Object.keys(runOptions)) {
    if (key === 'signal')
      throw say(
        "runOptions.signal is not taken: each run stops with the chat's own abort signal (useChat's stop). Leave it out",
      );
    if (key !== 'ifBusy' && key !== 'toolChoice')
      throw say(`runOptions.${key} is not an option of a run; runOptions must be { ifBusy?, toolChoice? }`);
  }
  if (runOptions.ifBusy !== undefined && runOptions.ifBusy !== 'wait' && runOptions.ifBusy !== 'fail')
    throw say(`runOptions.ifBusy must be 'wait' or 'fail'; it was given ${described(runOptions.ifBusy)}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a wrong argument was, in a few words a person recognizes. */
function described(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value !== 'object')
    return `${typeof value === 'function' ? 'a function' : `the ${typeof value} ${String(value)}`}`;
  const keys = Object.keys(value);
  return keys.length ? `an object with ${keys.slice(0, 5).join(', ')}` : 'an empty object';
}

function invalid(message: string): AgentError {
  return new AgentError('invalid-options', message);
}
