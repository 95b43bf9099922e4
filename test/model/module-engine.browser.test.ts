// model: { engine: 'module', url }: a page's own engine, an ES module of its origin that the worker imports.
import { describe, expect, test } from 'vitest';
import { AgentError, createAgent } from '../../src/index';
import modelsGuide from '../../docs/models-and-engines.md?raw';
import echoEngineSource from './fixtures/engines/echo-engine.js?raw';
import { agentsClosedAfterEach, calls, responses, todoList, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();
// Through a variable, so that vite leaves these URLs alone (it rewrites `new URL(literal, import.meta.url)`).
const here = import.meta.url;
const fixture = (name: string) => new URL(`fixtures/engines/${name}`, here).href;

/** The fixture's address relative to this document, as a page would write it in its own folder. */
function relativeToDocument(href: string): string {
  const base = new URL(document.baseURI);
  const depth = base.pathname.split('/').length - 2;
  const relative = `${'../'.repeat(depth)}${new URL(href).pathname.slice(1)}`;
  expect(new URL(relative, document.baseURI).href).toBe(href);
  return relative;
}

async function refusal(url: string): Promise<AgentError> {
  const error = await createAgent({ model: { engine: 'module', url }, storage: 'memory' }).then(
    (agent) => (agent.close(), undefined),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

describe('an engine module', () => {
  test("runs in the worker as the model: it streams text, calls the page's tool, and answers from the tool's result", async () => {
    const { addTodo, items } = todoList();
    const agent = await start({
      model: { engine: 'module', url: relativeToDocument(fixture('echo-engine.js')), options: { greeting: 'Echo' } },
      tools: [addTodo],
      dbName: uniqueDb('module'),
    });
    expect(agent.info?.model).toMatchObject({ engine: 'module', label: 'Echo engine (no model)', contextWindow: 8192 });

    const partials: string[] = [];
    for await (const event of agent.run('hello there'))
      if (event.partial) partials.push(...event.content!.parts.map((part) => ('text' in part ? part.text : '')));
    expect(partials).toEqual(['Echo: ', 'hello ', 'there']);

    const { text, events } = await agent.send('add buy milk');
    expect(items()).toEqual(['buy milk']);
    expect(calls(events).map((call) => [call.name, call.args])).toEqual([['add_todo', { text: 'buy milk' }]]);
    expect(responses(events)[0]!.response).toEqual({ id: 'todo-1' });
    expect(text).toBe('Done: {"id":"todo-1"}');
    // The session holds it like any model's run.
    const stored = await agent.sessions.get(agent.sessionId);
    expect(stored!.events.filter((event) => event.content?.role === 'user')).toHaveLength(2);
  });

  test('is what the “Your own engine” section of docs/models-and-engines.md shows', async () => {
    const section = modelsGuide.split('## Your own engine')[1]?.split('\n## ')[0] ?? '';
    const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks).toContain(echoEngineSource.replace(/\r\n/g, '\n'));
  });

  test('a module that is not there is refused with its address and what to check', async () => {
    const error = await refusal(fixture('missing.js'));
    expect(error.code).toBe('model-not-found');
    expect(error.message).toContain('missing.js');
    expect(error.message).toMatch(/HTTP 404|HTML page/);
  });

  test('a module without a default export, or whose default is not a factory, says what to export', async () => {
    for (const name of ['no-default.js', 'default-not-function.js']) {
      const error = await refusal(fixture(name));
      expect(error.code).toBe('invalid-options');
      expect(error.message).toMatch(/no default export|not a function/);
      expect(error.message).toContain('export default (options) =>');
    }
  });

  test('an engine without generate() is refused by name', async () => {
    const error = await refusal(fixture('no-generate.js'));
    expect(error.code).toBe('invalid-options');
    expect(error.message).toContain('no generate() method');
  });

  test('a module that fails to load (broken code, or a throw while it runs) names the failure', async () => {
    const broken = await refusal(fixture('syntax-error.js'));
    expect(broken.code).toBe('model-failed');
    expect(broken.message).toContain('syntax-error.js');
    const throwing = await refusal(fixture('throws-on-import.js'));
    expect(throwing.code).toBe('model-failed');
    expect(throwing.message).toContain('this engine needs a licence key');
  });

  test('a module of another origin, or a data:, blob: or javascript: URL, is refused before anything is fetched', async () => {
    const blob = URL.createObjectURL(
      new Blob(['export default () => ({ async *generate() {} })'], { type: 'text/javascript' }),
    );
    for (const url of [
      'https://engines.example/engine.js',
      `http://127.0.0.1:1${new URL(fixture('echo-engine.js')).pathname}`,
      'data:text/javascript,export default () => ({})',
      blob,
      'javascript:alert(1)',
    ]) {
      const error = await refusal(url);
      expect(error.code, url).toBe('invalid-options');
      expect(error.message, url).toMatch(/another origin|http\(s\)/);
    }
    URL.revokeObjectURL(blob);
    await expect(createAgent({ model: { engine: 'module', url: '' }, storage: 'memory' })).rejects.toMatchObject({
      code: 'invalid-options',
      message: expect.stringContaining('model.url is required'),
    });
  });

  // Before the fix the module behind the redirect ran in the worker (it could list the origin's databases and send
  // their names away) and the agent started on it; a same-origin redirect to a same-origin module loaded, as now.
  test('a same-origin address that redirects to another origin is refused before the module runs; one that redirects within the origin loads', async () => {
    const ran: string[] = [];
    const channel = new BroadcastChannel('inpage-agent-test/module-ran');
    channel.onmessage = (message) => ran.push(String(message.data));
    const elsewhere = new URL(fixture('says-it-ran.js'));
    elsewhere.hostname = elsewhere.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
    const redirect = (to: string) => `/redirect?to=${encodeURIComponent(to)}`;
    try {
      const error = await refusal(redirect(elsewhere.href));
      expect(error.code).toBe('invalid-options');
      expect(error.message).toMatch(/redirect/);
      expect(error.message).toContain(location.origin);
      expect(error.message).toMatch(/Nothing of it ran/);
      // The module behind a redirect within the origin is the origin's own.
      const agent = await start({
        model: { engine: 'module', url: redirect(fixture('says-it-ran.js')) },
        storage: 'memory',
      });
      expect((await agent.send('hi')).text).toBe('I ran in your worker.');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ran.map((href) => new URL(href).origin)).toEqual([location.origin]);
    } finally {
      channel.close();
    }
  });

  test('a delta that is not one ends the run with an error that shows what the module yielded', async () => {
    const agent = await start({ model: { engine: 'module', url: fixture('bad-delta.js') }, storage: 'memory' });
    const { error } = await agent.send('hi');
    expect(error?.code).toBe('model-failed');
    expect(error?.message).toContain('yielded "Hello", which is not a model delta');
  });
});
