import { describe, expect, test } from 'vitest';
import { readPort, startedHost } from './started-host';

const message = (text: string, messageId: string) =>
  ({ kind: 'message', runId: crypto.randomUUID(), ifBusy: 'wait', text, messageId }) as const;

describe('the sessions service', () => {
  test('the open session is listed, read, counted and knows its own events', async () => {
    const { host, info } = await startedHost([{ text: 'Hello there.' }]);
    await readPort(await host.runs.start(message('Hi', 'msg-1')));
    const sessions = host.sessions;
    expect((await sessions.list()).map((summary) => summary.id)).toEqual([info.sessionId]);
    const view = await sessions.get(info.sessionId);
    expect(view?.events.map((event) => event.author)).toEqual(['user', 'assistant']);
    expect(await sessions.hasEvent('msg-1')).toBe(true);
    expect(await sessions.hasEvent('msg-never-sent')).toBe(false);
    expect(await sessions.stats()).toMatchObject({ sessionId: info.sessionId, events: 2 });
    expect(await sessions.pendingApprovals()).toEqual([]);
    expect(await sessions.get('no-such-session')).toBeUndefined();
  });

  test('a session exported as JSONL comes back whole under a new id, and is deleted', async () => {
    const { host, info } = await startedHost([{ text: 'Hello there.' }]);
    await readPort(await host.runs.start(message('Hi', 'msg-1')));
    const sessions = host.sessions;
    const jsonl = await sessions.export(info.sessionId);
    const progress: number[] = [];
    const copy = await sessions.import(jsonl, ({ linesDone }) => void progress.push(linesDone));
    expect(copy).not.toBe(info.sessionId);
    expect((await sessions.get(copy))?.events.map((event) => event.author)).toEqual(['user', 'assistant']);
    expect(progress.length).toBeGreaterThan(0);
    await sessions.delete(copy);
    expect(await sessions.get(copy)).toBeUndefined();
  });

  test('open() puts another session in place of the agent’s, and runs go to it', async () => {
    const { host, info } = await startedHost([{ text: 'First.' }, { text: 'Second.' }]);
    await readPort(await host.runs.start(message('One', 'msg-1')));
    const opened = await host.sessions.open();
    expect(opened.sessionId).not.toBe(info.sessionId);
    expect(opened.model).toEqual(info.model);
    await readPort(await host.runs.start(message('Two', 'msg-2')));
    expect(await host.sessions.hasEvent('msg-2')).toBe(true);
    expect(await host.sessions.hasEvent('msg-1')).toBe(false);
    expect((await host.sessions.open(info.sessionId)).sessionId).toBe(info.sessionId);
    expect(await host.sessions.hasEvent('msg-1')).toBe(true);
  });

  test('after close() every call says the agent is closed', async () => {
    const { host } = await startedHost([]);
    const sessions = host.sessions;
    await host.close();
    expect(() => sessions.list()).toThrow(/not started or was closed/);
    await expect(sessions.stats()).rejects.toMatchObject({ code: 'closed' });
  });
});
