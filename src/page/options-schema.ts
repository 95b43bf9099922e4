/**
 * createAgent's options, checked up front: a typo or a wrong type is one
 * clear `invalid-options` error naming the field, before a worker starts,
 * instead of a TypeError, a DataCloneError or a silent default later.
 */
import { AgentError } from '../errors';
import { isTool } from '../tools/define-tool';
import { findUncloneable } from '../tools/find-uncloneable';
import { formatPath } from '../tools/format-issues';
import { z } from '../tools/zod';
import { limitsShape, wholeAtLeast } from '../contract/limits';
import { decisionsShape } from '../contract/decisions';

const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
  error: 'must be a function',
});
const oneOrMany = (schema: typeof fn) =>
  z.union([schema, z.array(schema)], { error: 'must be a function or an array of functions' });
const name = z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' });

/**
 * The longest session id: far more than any id a page makes (the runtime's own are about 30 characters, a UUID 36,
 * a user's and a thread's together fit), and the id is stored on every event and names the session's lock and its
 * messages to other tabs; a 1,000,000-character one was once accepted and stored on each event.
 */
const MAX_SESSION_ID_CHARS = 256;
const sessionId = name.max(MAX_SESSION_ID_CHARS, {
  error: `must be at most ${MAX_SESSION_ID_CHARS} characters long`,
});

/** Worker files come from http(s) (or a bundler's blob:) URLs; never javascript: or data:. */
const workerUrl = z.custom<string | URL>(
  (value) => {
    if (!(typeof value === 'string' || value instanceof URL)) return false;
    try {
      const base = typeof document !== 'undefined' ? document.baseURI : undefined;
      return ['http:', 'https:', 'blob:', 'chrome-extension:'].includes(new URL(String(value), base).protocol);
    } catch {
      return false;
    }
  },
  { error: 'must be the URL of a worker script (http, https or blob), as a string or URL' },
);

/** A scripted turn (ScriptedTurn): what the model says in one step. It crosses to the worker, so plain data only. */
const delayMs = z.number({ error: 'must be a number of milliseconds' }).nonnegative().optional();
const scriptedTurn = z.union(
  [
    z.strictObject({
      text: z.string().optional(),
      toolCalls: z.array(z.strictObject({ name: z.string(), args: z.unknown(), id: z.string().optional() })).optional(),
      delayMs,
    }),
    z.strictObject({ raw: z.string(), delayMs }),
  ],
  {
    error:
      'must be a turn: { text?: string, toolCalls?: [{ name: string, args, id?: string }] } or { raw: string } (what a model writes), each with delayMs? in milliseconds',
  },
);
const scriptedTurns = z.array(scriptedTurn, {
  error: "must be an array of turns such as { text: 'Hi' } or { toolCalls: [{ name, args }] }",
});

const moduleUrlRequired = "is required with engine 'module': the address of an ES module of this origin";
const sha256Error =
  "must be the file's SHA-256 in hex (64 characters), or a list of them, one per file of a split model";
const sha256 = z.string({ error: sha256Error }).regex(/^[0-9a-f]{64}$/i, { error: sha256Error });
const ggufUrl = "is required with engine 'wllama': the address of a .gguf file, or the list of a split model's files";

// By engine, so that a mistake inside one (a turn of the wrong shape) is named where it is.
const model = z.discriminatedUnion(
  'engine',
  [
    z.looseObject({ engine: z.literal('webllm'), modelId: name }),
    z.looseObject({
      engine: z.literal('wllama'),
      url: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], { error: ggufUrl }),
      threads: wholeAtLeast(1).optional(),
      contextWindow: wholeAtLeast(256).optional(),
      gpu: z.enum(['auto', 'off'], { error: "must be 'auto' or 'off'" }).optional(),
      grammar: z
        .boolean({ error: 'must be true or false (false: calls are read after generation, no grammar)' })
        .optional(),
      sha256: z.union([sha256, z.array(sha256).min(1, { error: sha256Error })], { error: sha256Error }).optional(),
      downloadStallMs: wholeAtLeast(1).optional(),
    }),
    z.looseObject({ engine: z.literal('scripted'), turns: scriptedTurns }),
    z.looseObject({
      engine: z.literal('module'),
      url: z.string({ error: moduleUrlRequired }).min(1, { error: moduleUrlRequired }),
    }),
  ],
  {
    error:
      "must be { engine: 'webllm', modelId } (a local model on WebGPU), { engine: 'wllama', url } (any GGUF model, on the CPU or WebGPU), { engine: 'scripted', turns } (replayed turns) or { engine: 'module', url } (your own engine)",
  },
);

const callbacks = z.strictObject(
  {
    beforeModel: oneOrMany(fn).optional(),
    afterModel: oneOrMany(fn).optional(),
    beforeTool: oneOrMany(fn).optional(),
    afterTool: oneOrMany(fn).optional(),
    onEvent: oneOrMany(fn).optional(),
  },
  { error: 'must be an object of callbacks { beforeModel, afterModel, beforeTool, afterTool, onEvent }' },
);

const schema = z.strictObject(
  {
    model,
    instructions: z.string({ error: 'must be a string' }).optional(),
    tools: z
      .array(
        z.custom((value) => isTool(value), { error: 'must be a tool made with defineTool() or fromMCPTool()' }),
        {
          error: 'must be an array of tools made with defineTool()',
        },
      )
      .optional(),
    sessionId: sessionId.optional(),
    appName: name.optional(),
    userId: name.optional(),
    dbName: name.optional(),
    storage: z.enum(['indexeddb', 'memory', 'auto'], { error: "must be 'indexeddb', 'memory' or 'auto'" }).optional(),
    // The run's limits: one shape for the page's check and the worker's defaults (contract/limits.ts).
    ...limitsShape,
    // The decision layer around each step (contract/decisions.ts).
    ...decisionsShape,
    onApproval: fn.optional(),
    callbacks: callbacks.optional(),
    agents: z
      .array(
        z.strictObject(
          {
            name,
            instructions: z.string({ error: 'must be a string' }),
            description: z.string({ error: 'must be a string' }).optional(),
            tools: z.array(z.string(), { error: 'must be an array of tool names' }).optional(),
          },
          { error: 'must be an agent { name, instructions, description?, tools? }' },
        ),
        { error: 'must be an array of agents' },
      )
      .optional(),
    rootAgent: name.optional(),
    toolkit: z
      .strictObject(
        {
          startActions: z.array(z.string(), { error: 'must be an array of action ids' }),
          threshold: z.number({ error: 'must be a number' }).optional(),
          hops: wholeAtLeast(0).optional(),
        },
        { error: 'must be { startActions, threshold?, hops? }' },
      )
      .optional(),
    toolChoice: z
      .union([z.enum(['auto', 'required', 'none']), z.strictObject({ name })], {
        error: "must be 'auto', 'required', 'none' or { name: '<tool name>' }",
      })
      .optional(),
    workerUrl: workerUrl.optional(),
    sharedWorkerUrl: workerUrl.optional(),
    share: z.literal('tabs', { error: "must be 'tabs' when given" }).optional(),
    restart: z.enum(['auto', 'never'], { error: "must be 'auto' or 'never'" }).optional(),
    warmup: z.boolean({ error: 'must be true or false' }).optional(),
    signal: z
      .custom<AbortSignal>((value) => value instanceof AbortSignal, { error: 'must be an AbortSignal' })
      .optional(),
  },
  { error: 'createAgent(options) needs an options object' },
);

export function checkOptions(options: unknown): void {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 5).map((issue) => {
      const field = formatPath(issue.path as (string | number)[]);
      if (issue.code === 'unrecognized_keys') {
        const where = field ? `${field}.` : '';
        return `${issue.keys.map((key) => `${where}${key}`).join(', ')} ${issue.keys.length > 1 ? 'are not options' : 'is not an option'} of createAgent`;
      }
      return field ? `${field} ${issue.message}` : issue.message;
    });
    throw invalid(lines.join('; '));
  }
  const turns = (options as { model: { engine: string; turns?: unknown[] } }).model;
  if (turns.engine === 'scripted') {
    const problem = findUncloneable(turns.turns);
    if (problem)
      throw invalid(
        `model.turns${problem.path.startsWith('[') ? '' : '.'}${problem.path} is ${problem.what}; scripted turns must be plain data`,
      );
  }
  const { agents = [], rootAgent } = options as { agents?: { name: string }[]; rootAgent?: string };
  if (rootAgent && !agents.some((agent) => agent.name === rootAgent)) {
    throw invalid(
      `rootAgent "${rootAgent}" is not one of agents (${agents.map((agent) => agent.name).join(', ') || 'none given'})`,
    );
  }
}

/** A session id given to agent.openSession() or agent.sessions: the rule of createAgent({ sessionId }). */
export function checkSessionId(id: unknown, where: string): void {
  const parsed = sessionId.safeParse(id);
  if (!parsed.success)
    throw new AgentError('invalid-options', `${where}: the session id ${parsed.error.issues[0]!.message}.`);
}

function invalid(problem: string): AgentError {
  return new AgentError('invalid-options', `createAgent: ${problem}. See the options in docs/api.md ("AgentOptions").`);
}
