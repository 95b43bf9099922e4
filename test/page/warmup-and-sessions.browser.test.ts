/**
 * agent.warmup() where there is nothing to read ahead, and agent.openSession(): through createAgent, in the
 * agent's real worker. An engine that keeps no prompt read ahead (the scripted engine; web-llm, here our
 * web-llm engine over web-llm's own MLCEngine with a weightless pipeline, as an engine module) answers at
 * once, and says it read nothing and why. openSession() moves the agent to another session without a new
 * worker: runs go to it, the old one keeps its events, and a restarted worker opens it again.
 */
import { describe, expect, test } from 'vitest';
import { type Agent, type WarmupResult } from '../../src/index';
import { AgentError } from '../../src/errors';
import { agentsClosedAfterEach, killableWorker, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();
// Through a variable, so that vite leaves the URL alone.
const here = import.meta.url;
const webllmStandIn = new URL('../model/fixtures/engines/prefill-webllm.ts', here).href;

const nextWarmup = (agent: Agent) =>
  new Promise<WarmupResult>((resolve) =>
    agent.addEventListener('warmup', (event) => resolve((event as CustomEvent<WarmupResult>).detail), { once: true }),
  );

describe('warmup on an engine that cannot read ahead', () => {
  test('the scripted engine: warmup() resolves at once, says it read nothing and why; runs are unchanged', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'Hello.' }] },
      instructions: 'You help with this page.',
      dbName: uniqueDb('warmup-scripted'),
    });
    const result = await agent.warmup();
    expect(result).toMatchObject({ status: 'unsupported', promptTokens: 0, prefilledTokens: 0, cachedTokens: 0 });
    expect(result.reason).toMatch(/^The scripted engine .* nothing was read ahead\.$/);
    expect((await agent.send('hi')).text).toBe('Hello.');
  });

  test('createAgent({ warmup: true }) on web-llm (its real MLCEngine, weightless): a warmup event that says nothing was read', async () => {
    const agent = await start({
      model: { engine: 'module', url: webllmStandIn, options: { family: 'qwen3', outputs: [], channel: 'unused' } },
      instructions: 'You help with this page.',
      dbName: uniqueDb('warmup-webllm'),
      warmup: true,
    });
    const result = await nextWarmup(agent);
    expect(result).toMatchObject({ status: 'unsupported', promptTokens: 0 });
    expect(result.reason).toMatch(/nothing was read/);
  });

  test('an aborted signal rejects at once with aborted', async () => {
    const agent = await start({ model: { engine: 'scripted', turns: [] }, dbName: uniqueDb('warmup-aborted') });
    const controller = new AbortController();
    controller.abort();
    await expect(agent.warmup({ signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('openSession()', () => {
  test('moves the agent to a new session in the same worker, and back; each session keeps its own events', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] },
      dbName: uniqueDb('open-session'),
    });
    const first = agent.sessionId;
    await agent.send('first');
    const second = await agent.openSession();
    expect(second).not.toBe(first);
    expect(agent.sessionId).toBe(second);
    expect(agent.info?.sessionId).toBe(second);
    const { events } = await agent.send('second');
    expect(events.every((event) => event.sessionId === second)).toBe(true);

    expect(await agent.openSession(first)).toBe(first);
    await agent.send('first again');
    const texts = async (id: string) =>
      (await agent.sessions.get(id))!.events.flatMap((event) =>
        event.content?.role === 'user' ? event.content.parts.map((part) => ('text' in part ? part.text : '')) : [],
      );
    expect(await texts(first)).toEqual(['first', 'first again']);
    expect(await texts(second)).toEqual(['second']);
    // An id of the page's choosing that the store does not hold yet is a new session by that id.
    expect(await agent.openSession('chosen-by-the-page')).toBe('chosen-by-the-page');
    await expect(agent.openSession('')).rejects.toBeInstanceOf(AgentError);
  });

  test('a worker that dies and restarts opens the session opened last', async () => {
    const worker = killableWorker();
    const agent = await start({
      workerUrl: worker.workerUrl,
      model: { engine: 'scripted', turns: [{ text: 'After the restart.' }] },
      dbName: uniqueDb('open-session-restart'),
    });
    const opened = await agent.openSession();
    const restarted = new Promise<void>((resolve) =>
      agent.addEventListener('status', function ready(event) {
        if ((event as CustomEvent<{ status: string }>).detail.status !== 'ready') return;
        agent.removeEventListener('status', ready);
        resolve();
      }),
    );
    worker.kill();
    await restarted;
    expect(agent.sessionId).toBe(opened);
    const { events } = await agent.send('hello');
    expect(events.every((event) => event.sessionId === opened)).toBe(true);
  });
});
