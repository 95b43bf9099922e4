/**
 * A page's own engine: `model: { engine: 'module', url, options }`. The worker
 * imports the ES module at `url` and calls its default export, a factory
 * `(options) => engine`, with `options`. The engine needs only
 * `generate(request, signal)`, an async iterable of ModelDeltas; `info`'s
 * fields, `load`, `countTokens` and `dispose` fall back to defaults.
 *
 * Only a module of the worker's own origin is imported: the worker holds every
 * session, so code from elsewhere (or a data:/blob: URL) would read them all.
 * That holds after redirects too: import() follows them wherever they lead (an
 * open redirect of the site took a module of another origin into the worker),
 * so the address is fetched first in same-origin mode, which fails at a
 * redirect to another origin before anything there is asked for, and the
 * address it ends at is the one imported.
 */
import { AgentError, messageOf } from '../../../errors';
import { DEFAULT_CONTEXT_WINDOW } from '../../context-window';
import type {
  Choice,
  ChoiceRequest,
  ModelDelta,
  ModelEngine,
  ModelInfo,
  ModelProgress,
  ModelRequest,
} from '../../engine';
import type { EngineModuleEngine } from '../../model-options';
import { estimateTokens } from '../../token-estimate';

const SHAPE = 'export default (options) => ({ generate(request, signal) { … } })';
const DELTA_TYPES = new Set([
  'text',
  'reasoning',
  'tool-call',
  'tool-call-start',
  'prompt-read',
  'tool-call-error',
  'notice',
  'finish',
]);
/** Schemes an origin of our own can have: a web page's, or an extension's own files. */
const OWN_SCHEMES = new Set(['http:', 'https:', 'chrome-extension:', 'moz-extension:']);

export class ModuleEngine implements ModelEngine {
  private engine?: EngineModuleEngine;
  /** Present once loaded, when the module's engine can (ModelEngine's optional abilities). */
  choose?: ModelEngine['choose'];
  callChance?: ModelEngine['callChance'];
  continueTurn?: ModelEngine['continueTurn'];
  private readonly url: string;
  private readonly preliminary: ModelInfo;

  /** `origin`: the worker's own; the module must come from it. */
  constructor(
    url: unknown,
    private readonly options: unknown,
    origin: string = self.location.origin,
  ) {
    this.url = sameOriginUrl(url, origin);
    const file = new URL(this.url).pathname.split('/').pop() || this.url;
    this.preliminary = {
      engine: 'module',
      modelId: this.url,
      label: `${file} (engine module)`,
      contextWindow: DEFAULT_CONTEXT_WINDOW,
      nativeToolCalls: true,
      // Its calls arrive as structured deltas; this names how a reader or a history would write them.
      toolFormat: 'generic-json',
    };
  }

  get info(): ModelInfo {
    return { ...this.preliminary, ...this.engine?.info, engine: 'module' };
  }

  async load(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void> {
    onProgress?.({ progress: 0, text: `Loading the engine module ${this.url}…` });
    const factory = await this.importFactory();
    let engine: unknown;
    try {
      engine = await factory(this.options);
    } catch (error) {
      throw new AgentError(
        'model-failed',
        `The engine module ${this.url} threw while making its engine: ${messageOf(error)}. Fix its default export.`,
        { cause: error },
      );
    }
    this.engine = checkedEngine(engine, this.url);
    const own = this.engine.choose;
    const continued = this.engine.continueTurn;
    if (typeof continued === 'function')
      this.continueTurn = (request, turn, signal) =>
        this.checkedDeltas(continued.call(engine, request, turn, signal), 'continueTurn');
    const chance = this.engine.callChance;
    if (typeof chance === 'function')
      this.callChance = async (...args) => {
        const { chance: value, ms, usage } = await chance.apply(engine, args);
        if (typeof value !== 'number' || !(value >= 0 && value <= 1))
          throw new AgentError(
            'model-failed',
            `The engine module ${this.url}'s callChance() returned a chance of ${preview(value)}; return { chance } between 0 and 1.`,
          );
        return { chance: value, ms: typeof ms === 'number' ? ms : 0, ...(usage && { usage }) };
      };
    if (typeof own === 'function')
      this.choose = (request, ...rest) => checkedChoice(own.call(engine, request, ...rest), request, this.url);
    await this.engine.load?.(onProgress, signal);
    onProgress?.({ progress: 1, text: `${this.info.label} is ready.` });
  }

  private async importFactory(): Promise<(options: unknown) => unknown> {
    const url = await ownAddress(this.url);
    let module: { default?: unknown };
    try {
      // A URL known only at run time: neither Vite nor webpack may try to bundle it.
      module = await import(/* @vite-ignore */ /* webpackIgnore: true */ url);
    } catch (error) {
      throw await loadFailure(this.url, error);
    }
    if (typeof module.default !== 'function') {
      throw new AgentError(
        'invalid-options',
        `The engine module ${this.url} has ${module.default === undefined ? 'no default export' : `a default export that is a ${typeof module.default}, not a function`}. Export a factory: ${SHAPE}.`,
      );
    }
    return module.default as (options: unknown) => unknown;
  }

  generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    return this.checkedDeltas(this.loaded().generate(request, signal), 'generate');
  }

  private async *checkedDeltas(stream: unknown, method: string): AsyncIterable<ModelDelta> {
    if (!stream || typeof (stream as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') {
      throw new AgentError(
        'model-failed',
        `The engine module ${this.url}'s ${method}() returned ${preview(stream)}, not an async iterable. Write it as an async generator: async *${method}(request, signal) { yield { type: 'text', text: 'Hi' }; }.`,
      );
    }
    for await (const delta of stream as AsyncIterable<unknown>) yield checkedDelta(delta, this.url);
  }

  countTokens(text: string): number {
    return this.engine?.countTokens?.(text) ?? estimateTokens(text);
  }

  countsWithTokenizer(): boolean {
    return this.engine?.countsWithTokenizer?.() ?? false;
  }

  async dispose(): Promise<void> {
    await this.engine?.dispose?.();
  }

  private loaded(): EngineModuleEngine {
    if (!this.engine) throw new AgentError('model-failed', `The engine module ${this.url} is not loaded yet.`);
    return this.engine;
  }
}

/**
 * Where `url` ends after its redirects, all within its own origin; or a refusal of a redirect out of it, before
 * anything of the module runs. A fetch that fails for another reason is import()'s to report (loadFailure).
 */
async function ownAddress(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { mode: 'same-origin', cache: 'no-store' });
  } catch (error) {
    const manual = await fetch(url, { redirect: 'manual', cache: 'no-store' }).catch(() => undefined);
    if (manual?.type === 'opaqueredirect')
      throw new AgentError(
        'invalid-options',
        `model.url ${url} redirects to another origin than ${new URL(url).origin}. The worker imports only modules of its own origin, after redirects too: serve the file itself from ${new URL(url).origin}. Nothing of it ran.`,
        { cause: error },
      );
    throw await loadFailure(url, error);
  }
  // Read to its end, not cancelled: a cancelled body shows in the page's network log as a failed request.
  await response.arrayBuffer().catch(() => undefined);
  return response.url || url;
}

/**
 * import() says only "Failed to fetch dynamically imported module" for a 404, a
 * server error and a network error alike: one plain fetch tells them apart.
 */
async function loadFailure(url: string, error: unknown): Promise<AgentError> {
  if (!(error instanceof TypeError)) {
    return new AgentError(
      'model-failed',
      `The engine module ${url} failed while loading: ${messageOf(error)}. Fix the module's code.`,
      { cause: error },
    );
  }
  const response = await fetch(url, { cache: 'no-store' }).catch(() => undefined);
  const type = response?.headers.get('content-type') ?? 'none';
  // Many hosts (vite's dev server too) answer an unknown path with their HTML page.
  if (!response || response.status === 404 || response.status === 410 || (response.ok && type.includes('html'))) {
    const answer = !response
      ? 'no answer from the server'
      : response.ok
        ? 'the server sent an HTML page, as hosts do for a path they do not have'
        : `HTTP ${response.status}`;
    return new AgentError(
      'model-not-found',
      `The engine module ${url} could not be loaded (${answer}). Check that the file is served at that address.`,
      { cause: error },
    );
  }
  return new AgentError(
    'model-failed',
    response.ok
      ? `The engine module ${url} could not be imported (${messageOf(error)}; served as ${type}). Serve it as text/javascript and check the modules it imports.`
      : `The engine module ${url} could not be loaded: the server answered HTTP ${response.status}. Check the file's code and the server's log.`,
    { cause: error },
  );
}

function sameOriginUrl(url: unknown, origin: string): string {
  if (typeof url !== 'string' || !url) {
    throw new AgentError('invalid-options', `model.url must be the address of an ES module, e.g. '/engines/mine.js'.`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    throw new AgentError('invalid-options', `model.url "${url}" is not a URL. Give the address of an ES module.`);
  }
  if (!OWN_SCHEMES.has(parsed.protocol)) {
    throw new AgentError(
      'invalid-options',
      `model.url "${clip(url)}" is a ${parsed.protocol} URL; an engine module must be a file served over http(s) from ${origin}.`,
    );
  }
  if (parsed.origin !== origin) {
    throw new AgentError(
      'invalid-options',
      `model.url ${parsed.href} is on ${parsed.origin}, another origin than ${origin}. The worker imports only modules of its own origin: serve the file from ${origin}.`,
    );
  }
  return parsed.href;
}

async function checkedChoice(choosing: Promise<Choice>, request: ChoiceRequest, url: string): Promise<Choice> {
  const choice = (await choosing) as Partial<Choice> | undefined;
  if (!choice || typeof choice.option !== 'string' || !request.options.includes(choice.option))
    throw new AgentError(
      'model-failed',
      `The engine module ${url}'s choose() returned ${preview(choice)}; return { option, ms } with option one of ${request.options.join(', ')}.`,
    );
  return {
    option: choice.option,
    ms: typeof choice.ms === 'number' ? choice.ms : 0,
    ...(choice.usage && { usage: choice.usage }),
  };
}

function checkedEngine(engine: unknown, url: string): EngineModuleEngine {
  if (!engine || typeof engine !== 'object') {
    throw new AgentError(
      'invalid-options',
      `The engine module ${url}'s factory returned ${preview(engine)}, not an engine. Return an object: ${SHAPE}.`,
    );
  }
  const candidate = engine as Record<string, unknown>;
  const wrong = ['load', 'countTokens', 'countsWithTokenizer', 'dispose'].filter(
    (name) => candidate[name] !== undefined && typeof candidate[name] !== 'function',
  );
  if (typeof candidate.generate !== 'function') {
    throw new AgentError(
      'invalid-options',
      `The engine module ${url}'s engine has no generate() method. An engine needs at least ${SHAPE}.`,
    );
  }
  if (wrong.length) {
    throw new AgentError(
      'invalid-options',
      `The engine module ${url}'s engine has ${wrong.join(', ')} that ${wrong.length > 1 ? 'are not functions' : 'is not a function'}; leave them out or make them methods.`,
    );
  }
  return candidate as unknown as EngineModuleEngine;
}

function checkedDelta(delta: unknown, url: string): ModelDelta {
  const value = delta as Partial<Record<string, unknown>> | null;
  const ok =
    value !== null &&
    typeof value === 'object' &&
    DELTA_TYPES.has(value.type as string) &&
    (value.type === 'text' || value.type === 'reasoning' ? typeof value.text === 'string' : true) &&
    (value.type === 'tool-call-start' ? typeof value.name === 'string' : true) &&
    (value.type === 'prompt-read' ? Number.isFinite(value.read) && Number.isFinite(value.of) : true) &&
    (value.type === 'tool-call'
      ? typeof value.call === 'object' &&
        value.call !== null &&
        typeof (value.call as { name?: unknown }).name === 'string'
      : true);
  if (!ok) {
    throw new AgentError(
      'model-failed',
      `The engine module ${url} yielded ${preview(delta)}, which is not a model delta. Yield { type: 'text', text }, { type: 'tool-call', call: { name, args } } or { type: 'finish', reason }.`,
    );
  }
  return delta as ModelDelta;
}

function preview(value: unknown): string {
  if (value === undefined) return 'undefined';
  return clip(typeof value === 'string' ? JSON.stringify(value) : messageOf(value));
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
