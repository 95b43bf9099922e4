import { describe, expect, test } from 'vitest';
import { openDB } from 'idb';
import { MemorySessionStore } from '../../src/session/memory-store';
import { openIdbSessionStore } from '../../src/session/idb-store';
import { openAgentDatabase, storageError } from '../../src/session/database';
import { exportSession, importSession } from '../../src/session/jsonl';
import { interruptedCalls, repairInterrupted } from '../../src/session/repair';
import { foldSessionState } from '../../src/session/state';
import { withSessionLock } from '../../src/session/session-lock';
import { subscribeSession } from '../../src/session/broadcast';
import type { NewEvent } from '../../src/session/event';
import type { SessionStore } from '../../src/session/store';
import { uniqueDb } from '../page/helpers';

const stores: [string, () => Promise<SessionStore>][] = [
  ['IndexedDB', () => openIdbSessionStore({ dbName: uniqueDb('store') })],
  ['memory', async () => new MemorySessionStore()],
];

function event(sessionId: string, extra: Partial<NewEvent> = {}): NewEvent {
  return { id: crypto.randomUUID(), sessionId, invocationId: 'inv', author: 'user', timestamp: Date.now(), ...extra };
}

const say = (text: string): Partial<NewEvent> => ({ content: { role: 'user', parts: [{ text }] } });

describe.each(stores)('%s store', (_name, open) => {
  test('numbers events from 1, titles the session from the first user words, refuses partial events', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    const first = await store.append(session.id, event(session.id, say('Plan my week please')));
    const second = await store.append(session.id, event(session.id, { author: 'assistant' }));
    expect([first.seq, second.seq]).toEqual([1, 2]);
    await expect(store.append(session.id, event(session.id, { partial: true }))).rejects.toThrow(/never stored/);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ id: session.id, title: 'Plan my week please', eventCount: 2 });
    expect((await store.events(session.id, { afterSeq: 1 })).map((e) => e.seq)).toEqual([2]);
    store.close();
  });

  test('state scopes: session keys fold from the deltas, temp: is never stored, app: and user: are shared as they should be', async () => {
    const store = await open();
    const mine = await store.create({ appName: 'app', userId: 'ana' });
    const alsoMine = await store.create({ appName: 'app', userId: 'ana' });
    const theirs = await store.create({ appName: 'app', userId: 'bo' });
    const deltas = [
      { step: 1, 'temp:scratch': 'x', 'user:theme': 'dark', 'app:motd': 'hi' },
      { step: 2, cart: ['milk'] },
    ];
    for (const stateDelta of deltas) await store.append(mine.id, event(mine.id, { actions: { stateDelta } }));
    const stored = await store.events(mine.id);
    expect(stored[0]!.actions!.stateDelta).toEqual({ step: 1, 'user:theme': 'dark', 'app:motd': 'hi' });
    const view = (await store.get(mine.id))!.state;
    expect(view).toEqual({ step: 2, cart: ['milk'], 'user:theme': 'dark', 'app:motd': 'hi' });
    expect(foldSessionState(stored.map((e) => e.actions?.stateDelta))).toEqual({ step: 2, cart: ['milk'] });
    expect((await store.get(alsoMine.id))!.state).toEqual({ 'user:theme': 'dark', 'app:motd': 'hi' });
    expect((await store.get(theirs.id))!.state).toEqual({ 'app:motd': 'hi' });
    store.close();
  });

  test('export then import gives the same events and state under a new id; a bad line imports nothing and names its line', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    await store.append(session.id, event(session.id, say('hello')));
    await store.append(session.id, event(session.id, { author: 'assistant', content: { role: 'model', parts: [{ text: 'hi' }] }, actions: { stateDelta: { greeted: true } } }));
    const jsonl = await exportSession(store, session.id);
    const copyId = await importSession(store, jsonl);
    expect(copyId).not.toBe(session.id);
    const strip = (events: { id: string; seq: number; content?: unknown; actions?: unknown }[]) => events.map(({ id, seq, content, actions }) => ({ id, seq, content, actions }));
    expect(strip(await store.events(copyId))).toEqual(strip(await store.events(session.id)));
    expect((await store.get(copyId))!.state).toEqual({ greeted: true });

    const before = (await store.list()).length;
    const lines = jsonl.trim().split('\n');
    const corrupt = [lines[0], lines[1], '{"id": "x", oops', lines[2]].join('\n');
    await expect(importSession(store, corrupt)).rejects.toMatchObject({ code: 'import-invalid', message: expect.stringMatching(/line 3: not valid JSON/) });
    const gap = [lines[0], lines[2]].join('\n');
    await expect(importSession(store, gap)).rejects.toMatchObject({ message: expect.stringMatching(/line 2: "seq" is 2 but 1 was expected/) });
    expect((await store.list()).length).toBe(before);
    store.close();
  });

  test('large imports report progress', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    const header = JSON.stringify({ type: 'session', format: 'inpage-agent/session@1', id: session.id, appName: 'app', userId: 'u', createdAt: 1, updatedAt: 1, eventCount: 2000 });
    const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ ...event('old'), seq: i + 1, ...say(`line ${i}`) }));
    const progress: number[] = [];
    const id = await importSession(store, [header, ...lines].join('\n'), { onProgress: (p) => progress.push(p.linesDone) });
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(2001);
    expect((await store.events(id)).length).toBe(2000);
    store.close();
  });
});

describe('IndexedDB specifics', () => {
  test('an append that fails leaves neither its event nor its state change; what was stored stays', async () => {
    const store = await openIdbSessionStore({ dbName: uniqueDb('atomic') });
    const session = await store.create({ appName: 'app', userId: 'u' });
    await store.append(session.id, event(session.id, { actions: { stateDelta: { kept: 1 } } }));
    // A function cannot be stored: the browser refuses the write inside the transaction.
    await expect(store.append(session.id, event(session.id, { actions: { stateDelta: { kept: 2, bad: () => 1 } } }))).rejects.toMatchObject({ code: 'storage-unavailable' });
    expect((await store.events(session.id)).length).toBe(1);
    expect((await store.get(session.id))!.state).toEqual({ kept: 1 });
    expect((await store.append(session.id, event(session.id))).seq).toBe(2);
    store.close();
  });

  test('a database written by schema version 1 opens with the current code, keeps its data, and takes new events', async () => {
    const name = uniqueDb('v1');
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('sessions', { keyPath: 'id' });
        db.createObjectStore('events', { keyPath: ['sessionId', 'seq'] });
      },
    });
    await v1.put('sessions', { id: 'old', appName: 'app', userId: 'u', createdAt: 1, updatedAt: 2, state: { cart: 1 }, lastSeq: 1 });
    await v1.put('events', { id: 'e1', sessionId: 'old', invocationId: 'i', seq: 1, author: 'user', timestamp: 2, content: { role: 'user', parts: [{ text: 'from v1' }] } });
    v1.close();
    const store = await openIdbSessionStore({ dbName: name });
    expect((await store.get('old'))!.state).toEqual({ cart: 1 });
    expect((await store.events('old'))[0]!.content!.parts).toEqual([{ text: 'from v1' }]);
    expect(await store.list({ appName: 'app', userId: 'u' })).toHaveLength(1);
    expect((await store.append('old', event('old'))).seq).toBe(2);
    store.close();
  });

  test('an upgrade blocked by another tab that keeps an old version open fails with storage-blocked, saying what to do', async () => {
    const name = uniqueDb('blocked');
    const stubborn = await openDB(name, 1, { upgrade: (db) => void db.createObjectStore('sessions', { keyPath: 'id' }) });
    // This connection ignores versionchange, as an old tab of the page would.
    await expect(openAgentDatabase(name)).rejects.toMatchObject({ code: 'storage-blocked', message: expect.stringMatching(/Close the other tabs/) });
    stubborn.close();
  });

  test('our connection lets go when another tab needs a newer version', async () => {
    const name = uniqueDb('yield');
    const store = await openIdbSessionStore({ dbName: name });
    const newer = await openDB(name, 3);
    expect(newer.version).toBe(3);
    newer.close();
    store.close();
  });

  test('QuotaExceededError from the browser becomes quota-exceeded, saying nothing stored was lost', () => {
    // A real DOMException as Chromium raises it; filling a real quota here would take gigabytes.
    const error = storageError(new DOMException('The quota has been exceeded.', 'QuotaExceededError'), 'appending an event');
    expect(error.code).toBe('quota-exceeded');
    expect(error.message).toMatch(/nothing already stored was lost/);
  });
});

describe('resume and concurrency', () => {
  test('open calls get one "interrupted" response; calls waiting for approval or long-running are left alone; repair is idempotent', async () => {
    const store = new MemorySessionStore();
    const { id } = await store.create({ appName: 'app', userId: 'u' });
    const call = (callId: string, name: string) => ({ functionCall: { id: callId, name, args: {} } });
    await store.append(id, event(id, { author: 'assistant', content: { role: 'model', parts: [call('a', 'save'), call('b', 'delete'), call('c', 'ask')] } }));
    await store.append(id, event(id, { author: 'assistant', actions: { requestApproval: [{ callId: 'b', name: 'delete', args: {} }] } }));
    await store.append(id, event(id, { author: 'assistant', longRunningToolIds: ['c'] }));
    expect(interruptedCalls(await store.events(id)).map((open) => open.call.id)).toEqual(['a']);
    const repaired = await repairInterrupted(store, id);
    expect(repaired[0]!.content!.parts).toEqual([{ functionResponse: { id: 'a', name: 'save', response: null, error: 'interrupted' } }]);
    expect(await repairInterrupted(store, id)).toEqual([]);
  });

  test('two runs of one session never overlap; ifBusy "fail" says the session is busy; an abort while waiting ends the wait', async () => {
    const id = crypto.randomUUID();
    const log: string[] = [];
    const run = (name: string, ms: number) =>
      withSessionLock(id, { ifBusy: 'wait' }, async () => {
        log.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`${name} out`);
      });
    const first = run('first', 60);
    const second = run('second', 10);
    await expect(withSessionLock(id, { ifBusy: 'fail' }, async () => undefined)).rejects.toMatchObject({ code: 'session-busy' });
    const controller = new AbortController();
    const waiting = withSessionLock(id, { ifBusy: 'wait', signal: controller.signal }, async () => log.push('never'));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
    await Promise.all([first, second]);
    expect(log).toEqual(['first in', 'first out', 'second in', 'second out']);
  });

  test('a subscriber sees events published from another context through BroadcastChannel', async () => {
    const dbName = uniqueDb('broadcast');
    const seen: string[] = [];
    const unsubscribe = subscribeSession(dbName, 's1', (e) => seen.push(e.id));
    // A worker is another context, as another tab would be.
    const source = `const c = new BroadcastChannel('inpage-agent/events/${dbName}'); c.postMessage({ id: 'from-worker', sessionId: 's1' }); c.postMessage({ id: 'other-session', sessionId: 's2' });`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    await new Promise((resolve) => setTimeout(resolve, 200));
    worker.terminate();
    unsubscribe();
    expect(seen).toEqual(['from-worker']);
  });
});
