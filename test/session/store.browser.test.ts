import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDB } from 'idb';
import { MemorySessionStore } from '../../src/session/memory-store';
import { openIdbSessionStore } from '../../src/session/idb-store';
import { DB_VERSION, openAgentDatabase, storageError } from '../../src/session/idb-database';
import { exportSession, importSession } from '../../src/session/jsonl';
import { openSessionStore } from '../../src/session/open-store';
import { interruptedCalls } from '../../src/session/repair';
import { repairOpenCalls } from '../../src/flow/repair-open-calls';
import type { RecordTarget } from '../../src/flow/types';
import { foldSessionState } from '../../src/session/state';
import { withSessionLock } from '../../src/session/session-lock';
import { subscribeSession } from '../../src/session/broadcast';
import type { AgentEvent, NewEvent } from '../../src/session/event';
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
    await store.append(
      session.id,
      event(session.id, {
        author: 'assistant',
        content: { role: 'model', parts: [{ text: 'hi' }] },
        actions: { stateDelta: { greeted: true } },
      }),
    );
    const jsonl = await exportSession(store, session.id);
    const copyId = await importSession(store, jsonl);
    expect(copyId).not.toBe(session.id);
    const strip = (events: { id: string; seq: number; content?: unknown; actions?: unknown }[]) =>
      events.map(({ id, seq, content, actions }) => ({ id, seq, content, actions }));
    expect(strip(await store.events(copyId))).toEqual(strip(await store.events(session.id)));
    expect((await store.get(copyId))!.state).toEqual({ greeted: true });

    const before = (await store.list()).length;
    const lines = jsonl.trim().split('\n');
    const corrupt = [lines[0], lines[1], '{"id": "x", oops', lines[2]].join('\n');
    await expect(importSession(store, corrupt)).rejects.toMatchObject({
      code: 'import-invalid',
      message: expect.stringMatching(/line 3: not valid JSON/),
    });
    const gap = [lines[0], lines[2]].join('\n');
    await expect(importSession(store, gap)).rejects.toMatchObject({
      message: expect.stringMatching(/line 2: "seq" is 2 but 1 was expected/),
    });
    const { author: _author, ...anonymous } = JSON.parse(lines[2]!);
    const noAuthor = [lines[0], lines[1], JSON.stringify(anonymous)].join('\n');
    await expect(importSession(store, noAuthor)).rejects.toMatchObject({
      code: 'import-invalid',
      details: { line: 3 },
      message: expect.stringMatching(/line 3: .*author/),
    });
    expect((await store.list()).length).toBe(before);
    store.close();
  });

  test('recent() gives the session and its latest events in one read, the events after the last checkpoint folded in', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    for (let i = 1; i <= 20; i++)
      await store.append(session.id, event(session.id, { ...say(`m${i}`), actions: { stateDelta: { n: i } } }));
    const recent = (await store.recent(session.id, 5))!;
    expect(recent.events.map((e) => e.seq)).toEqual([16, 17, 18, 19, 20]);
    expect(recent.session).toMatchObject({ lastSeq: 20, state: { n: 20 }, title: 'm1' });
    expect((await store.recent(session.id, 100))!.events).toHaveLength(20);
    expect(await store.recent('no-such-session', 5)).toBeUndefined();
  });

  test('get() of a missing id is undefined; list() is newest first; delete removes the session and its events', async () => {
    const store = await open();
    expect(await store.get('no-such-session')).toBeUndefined();
    const older = await store.create({ appName: 'app', userId: 'u' });
    const newer = await store.create({ appName: 'app', userId: 'u' });
    await store.append(older.id, event(older.id, { ...say('first chat'), timestamp: 1_000 }));
    await store.append(newer.id, event(newer.id, { ...say('second chat'), timestamp: 2_000 }));
    await store.append(newer.id, event(newer.id, { author: 'assistant', timestamp: 3_000 }));
    expect(await store.list()).toMatchObject([
      { id: newer.id, title: 'second chat', eventCount: 2 },
      { id: older.id, title: 'first chat', eventCount: 1 },
    ]);
    await store.delete(newer.id);
    expect(await store.get(newer.id)).toBeUndefined();
    expect(await store.events(newer.id)).toEqual([]);
    expect((await store.list()).map((s) => s.id)).toEqual([older.id]);
    await expect(store.append(newer.id, event(newer.id))).rejects.toMatchObject({ code: 'session-not-found' });
    store.close();
  });

  test('a session id that is taken is refused clearly, on create and on import', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    await store.append(session.id, event(session.id, say('mine')));
    await expect(store.create({ id: session.id, appName: 'app', userId: 'u' })).rejects.toMatchObject({
      code: 'invalid-options',
      message: expect.stringMatching(/already exists/),
    });
    const jsonl = await exportSession(store, session.id);
    await expect(importSession(store, jsonl, { newId: session.id })).rejects.toMatchObject({
      code: 'invalid-options',
      message: expect.stringMatching(/already exists/),
    });
    expect((await store.events(session.id)).map((e) => e.content)).toEqual([
      { role: 'user', parts: [{ text: 'mine' }] },
    ]);
    store.close();
  });

  test('a value the browser cannot store is refused as bad input, and nothing changes', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    await store.append(session.id, event(session.id, { actions: { stateDelta: { kept: 1, 'app:shared': 1 } } }));
    // A function cannot be stored by IndexedDB (DataCloneError); the memory store follows the same rule.
    await expect(
      store.append(
        session.id,
        event(session.id, { actions: { stateDelta: { kept: 2, 'app:shared': 2, bad: () => 1 } } }),
      ),
    ).rejects.toMatchObject({
      code: 'invalid-options',
      message: expect.stringMatching(/cannot store.*plain data/),
    });
    expect((await store.events(session.id)).length).toBe(1);
    expect((await store.get(session.id))!.state).toEqual({ kept: 1, 'app:shared': 1 });
    expect((await store.append(session.id, event(session.id))).seq).toBe(2);
    store.close();
  });

  test('appendAll stores its events in order in one step, all of them or none', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    await store.append(session.id, event(session.id, say('hello')));
    const stored = await store.appendAll(session.id, [
      event(session.id, { actions: { stateDelta: { a: 1, 'app:n': 1 } } }),
      event(session.id, { actions: { stateDelta: { a: 2, b: 1 } }, endReason: 'answer' }),
    ]);
    expect(stored.map((e) => e.seq)).toEqual([2, 3]);
    await expect(
      store.appendAll(session.id, [
        event(session.id, { actions: { stateDelta: { a: 3 } } }),
        event(session.id, { actions: { stateDelta: { bad: () => 1 } } }),
      ]),
    ).rejects.toMatchObject({ code: 'invalid-options' });
    expect((await store.events(session.id)).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await store.get(session.id))!.state).toEqual({ a: 2, b: 1, 'app:n': 1 });
    expect((await store.append(session.id, event(session.id))).seq).toBe(4);
    store.close();
  });

  test('large imports report progress', async () => {
    const store = await open();
    const session = await store.create({ appName: 'app', userId: 'u' });
    const header = JSON.stringify({
      type: 'session',
      format: 'inpage-agent/session@1',
      id: session.id,
      appName: 'app',
      userId: 'u',
      createdAt: 1,
      updatedAt: 1,
      eventCount: 2000,
    });
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ ...event('old'), seq: i + 1, ...say(`line ${i}`) }),
    );
    const progress: number[] = [];
    const id = await importSession(store, [header, ...lines].join('\n'), {
      onProgress: (p) => progress.push(p.linesDone),
    });
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(2001);
    expect((await store.events(id)).length).toBe(2000);
    store.close();
  });
});

describe('IndexedDB specifics', () => {
  test('an append numbered from what this store wrote last notices another writer, writes nothing, and appends after it', async () => {
    const name = uniqueDb('two-writers');
    const mine = await openIdbSessionStore({ dbName: name });
    const theirs = await openIdbSessionStore({ dbName: name });
    const { id } = await mine.create({ appName: 'app', userId: 'u' });
    await mine.append(id, event(id, { actions: { stateDelta: { who: 'me' } } }));
    // Another tab's worker appends to the session this store has written last.
    await theirs.append(id, event(id, { actions: { stateDelta: { who: 'them', theirs: 1 } } }));
    await mine.append(id, event(id, { actions: { stateDelta: { who: 'me again' } } }));
    const events = await mine.events(id);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    const session = (await mine.get(id))!;
    expect(session.lastSeq).toBe(3);
    expect(session.state).toEqual({ who: 'me again', theirs: 1 });
    expect(session.state).toEqual(foldSessionState(events.map((e) => e.actions?.stateDelta)));
    mine.close();
    theirs.close();
  });

  test('an append that meets an event written behind its back writes nothing in that attempt, then appends after it; the session is the fold of its log', async () => {
    const store = await openIdbSessionStore({ dbName: uniqueDb('atomic') });
    const session = await store.create({ appName: 'app', userId: 'u' });
    await store.append(session.id, event(session.id, { ...say('kept'), actions: { stateDelta: { kept: 1 } } }));
    // An event already sits at seq 2, written behind this store's back: the append's event add
    // fails with a ConstraintError only when the browser runs it, after the app: scope's update
    // of the same transaction was queued, so the browser aborts the whole transaction.
    await store.db.add('events', {
      ...event(session.id, { ...say('squatter'), actions: { stateDelta: { squatted: true } } }),
      seq: 2,
    } as AgentEvent);
    const appended = await store.append(
      session.id,
      event(session.id, { actions: { stateDelta: { kept: 2, added: true, 'app:visits': 1 } } }),
    );
    expect(appended.seq).toBe(3);
    const after = (await store.get(session.id))!;
    expect(after.lastSeq).toBe(3);
    expect(after.state).toEqual({ kept: 2, added: true, squatted: true, 'app:visits': 1 });
    const events = await store.events(session.id);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(events.map((e) => e.content)).toEqual([say('kept').content, say('squatter').content, undefined]);
    expect(await store.db.getAll('events')).toHaveLength(3);
    store.close();
  });

  test('between checkpoints the log is the truth: a store that opens the database anew sees every event, the state and the open calls they make', async () => {
    const name = uniqueDb('checkpoint');
    const writer = await openIdbSessionStore({ dbName: name });
    const { id } = await writer.create({ appName: 'app', userId: 'u' });
    // No run ends and no title is set, so most of these appends write only their event.
    for (let i = 1; i <= 20; i++) {
      await writer.append(
        id,
        event(id, {
          author: 'assistant',
          content: { role: 'model', parts: [{ functionCall: { id: `c${i}`, name: 'save', args: {} } }] },
          actions: { stateDelta: { step: i } },
        }),
      );
      if (i % 2 === 0) {
        await writer.append(
          id,
          event(id, {
            author: 'assistant',
            content: { role: 'tool', parts: [{ functionResponse: { id: `c${i}`, name: 'save', response: 'ok' } }] },
          }),
        );
      }
    }
    // The worker dies here: what it wrote is in the log, its memory is gone.
    const reader = await openIdbSessionStore({ dbName: name });
    const session = (await reader.get(id))!;
    expect(session.lastSeq).toBe(30);
    expect(session.state).toEqual({ step: 20 });
    expect(Object.keys(session.openCalls!).sort()).toEqual([
      'c1',
      'c11',
      'c13',
      'c15',
      'c17',
      'c19',
      'c3',
      'c5',
      'c7',
      'c9',
    ]);
    expect(await reader.list()).toMatchObject([{ id, eventCount: 30 }]);
    // And it appends after them.
    expect((await reader.append(id, event(id))).seq).toBe(31);
    writer.close();
    reader.close();
  });

  test('a database written by schema version 1 opens with the current code, keeps its data, and takes new events', async () => {
    const name = uniqueDb('v1');
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('sessions', { keyPath: 'id' });
        db.createObjectStore('events', { keyPath: ['sessionId', 'seq'] });
      },
    });
    await v1.put('sessions', {
      id: 'old',
      appName: 'app',
      userId: 'u',
      createdAt: 1,
      updatedAt: 2,
      state: { cart: 1 },
      lastSeq: 1,
    });
    await v1.put('events', {
      id: 'e1',
      sessionId: 'old',
      invocationId: 'i',
      seq: 1,
      author: 'user',
      timestamp: 2,
      content: { role: 'user', parts: [{ text: 'from v1' }] },
    });
    v1.close();
    const store = await openIdbSessionStore({ dbName: name });
    expect((await store.get('old'))!.state).toEqual({ cart: 1 });
    expect((await store.events('old'))[0]!.content!.parts).toEqual([{ text: 'from v1' }]);
    expect(await store.list({ appName: 'app', userId: 'u' })).toHaveLength(1);
    expect((await store.append('old', event('old'))).seq).toBe(2);
    store.close();
  });

  test('a database written by schema version 2 (with the toolkit store the graph left) keeps every session, its events and shared state; the unused store is dropped', async () => {
    const name = uniqueDb('v2');
    const v2 = await openDB(name, 2, {
      upgrade(db) {
        const sessions = db.createObjectStore('sessions', { keyPath: 'id' });
        sessions.createIndex('byUpdated', 'updatedAt');
        sessions.createIndex('byOwner', ['appName', 'userId']);
        db.createObjectStore('events', { keyPath: ['sessionId', 'seq'] });
        db.createObjectStore('appState', { keyPath: 'appName' });
        db.createObjectStore('userState', { keyPath: ['appName', 'userId'] });
        db.createObjectStore('toolkit');
      },
    });
    for (const id of ['first', 'second'])
      await v2.put('sessions', {
        id,
        appName: 'app',
        userId: 'u',
        createdAt: 1,
        updatedAt: 2,
        state: { cart: id },
        lastSeq: 1,
        openCalls: {},
      });
    for (const id of ['first', 'second'])
      await v2.put('events', {
        id: `e-${id}`,
        sessionId: id,
        invocationId: 'i',
        seq: 1,
        author: 'user',
        timestamp: 2,
        content: { role: 'user', parts: [{ text: `from v2 (${id})` }] },
      });
    await v2.put('appState', { appName: 'app', state: { 'app:theme': 'dark' } });
    await v2.put('toolkit', { version: 1, vertices: [], edges: [] }, 'default');
    v2.close();

    const store = await openIdbSessionStore({ dbName: name });
    expect((await store.list({ appName: 'app', userId: 'u' })).map((s) => s.id).sort()).toEqual(['first', 'second']);
    expect((await store.get('first'))!.state).toEqual({ cart: 'first', 'app:theme': 'dark' });
    expect((await store.events('second'))[0]!.content!.parts).toEqual([{ text: 'from v2 (second)' }]);
    expect((await store.append('first', event('first'))).seq).toBe(2);
    expect(store.db.version).toBe(DB_VERSION);
    expect([...store.db.objectStoreNames].sort()).toEqual(['appState', 'events', 'sessions', 'userState']);
    store.close();
  });

  test('an upgrade blocked by another tab that keeps an old version open fails with storage-blocked, saying what to do', async () => {
    const name = uniqueDb('blocked');
    const stubborn = await openDB(name, 1, {
      upgrade: (db) => void db.createObjectStore('sessions', { keyPath: 'id' }),
    });
    // This connection ignores versionchange, as an old tab of the page would.
    await expect(openAgentDatabase(name)).rejects.toMatchObject({
      code: 'storage-blocked',
      message: expect.stringMatching(/Close the other tabs/),
    });
    stubborn.close();
  });

  test('our connection lets go when another tab needs a newer version', async () => {
    const name = uniqueDb('yield');
    const store = await openIdbSessionStore({ dbName: name });
    const newer = await openDB(name, DB_VERSION + 1);
    expect(newer.version).toBe(DB_VERSION + 1);
    newer.close();
    // What this tab does next fails loudly, saying why and what to do.
    await expect(store.list()).rejects.toMatchObject({
      code: 'storage-closed',
      message: expect.stringMatching(/Another tab .* upgraded the database.*Reload this page/),
    });
    store.close();
  });

  test("a DOMException('…', 'QuotaExceededError') constructed in the browser maps to quota-exceeded, saying nothing stored was lost", () => {
    // Constructed, not provoked: Chromium gives this origin a 10 GiB quota, and a quota lowered
    // through DevTools (Storage.overrideQuotaForOrigin) was only honoured by IndexedDB when set
    // before the origin's first database opened, which test files sharing the origin cannot ensure.
    const error = storageError(
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
      'appending an event',
    );
    expect(error.code).toBe('quota-exceeded');
    expect(error.message).toMatch(/nothing already stored was lost/);
  });

  describe('without IndexedDB (as in some private modes)', () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB')!;
    beforeEach(() => void Object.defineProperty(globalThis, 'indexedDB', { value: undefined, configurable: true }));
    afterEach(() => void Object.defineProperty(globalThis, 'indexedDB', descriptor));

    test("storage 'auto' falls back to memory and says so; 'indexeddb' refuses with storage-unavailable", async () => {
      const auto = await openSessionStore({ storage: 'auto', dbName: uniqueDb('auto') });
      expect(auto.store.kind).toBe('memory');
      expect(auto.notice).toMatch(/memory only and will be lost on reload/);
      const session = await auto.store.create({ appName: 'app', userId: 'u' });
      expect((await auto.store.append(session.id, event(session.id, say('still works')))).seq).toBe(1);
      await expect(openSessionStore({ storage: 'indexeddb', dbName: uniqueDb('strict') })).rejects.toMatchObject({
        code: 'storage-unavailable',
        message: expect.stringMatching(/IndexedDB is not available.*storage: 'auto'/),
      });
    });
  });
});

describe('resume and concurrency', () => {
  test('open calls get one "interrupted" response; calls waiting for approval (and the other calls of their turn) or long-running are left alone; repair is idempotent', async () => {
    const store = new MemorySessionStore();
    const { id } = await store.create({ appName: 'app', userId: 'u' });
    const call = (callId: string, name: string) => ({ functionCall: { id: callId, name, args: {} } });
    const model = (...parts: ReturnType<typeof call>[]) =>
      event(id, { author: 'assistant', content: { role: 'model', parts } });
    await store.append(id, model(call('a', 'save')));
    await store.append(id, model(call('c', 'ask')));
    await store.append(id, event(id, { author: 'assistant', longRunningToolIds: ['c'] }));
    // A turn paused for a person: 'd' runs with it once 'b' is decided, so nothing may answer it before.
    await store.append(id, model(call('b', 'delete'), call('d', 'read')));
    await store.append(
      id,
      event(id, { author: 'assistant', actions: { requestApproval: [{ callId: 'b', name: 'delete', args: {} }] } }),
    );
    expect((await interruptedCalls(store, (await store.get(id))!)).map((open) => open.id)).toEqual(['a']);
    // The flow answers them through its recorder; answering again finds nothing open.
    const target: RecordTarget = {
      sessionId: id,
      invocationId: 'repair',
      store,
      history: [],
      state: {},
      emit: () => undefined,
    };
    await repairOpenCalls(target, (await store.get(id))!);
    expect(target.history.map((e) => e.content!.parts)).toEqual([
      [{ functionResponse: { id: 'a', name: 'save', response: null, error: 'interrupted' } }],
    ]);
    await repairOpenCalls(target, (await store.get(id))!);
    expect(target.history).toHaveLength(1);
    // The session record keeps what is open, so nothing needs the log to know it.
    expect(Object.keys((await store.get(id))!.openCalls!).sort()).toEqual(['b', 'c', 'd']);
  });

  test("a turn an earlier version marked 'turn' waits while a call of it waits for a person, and not after", async () => {
    const store = new MemorySessionStore();
    const session = await store.create({ appName: 'app', userId: 'u' });
    const open = (waiting?: 'approval' | 'turn') => ({
      name: 'x',
      seq: 1,
      invocationId: 'i',
      author: 'a',
      ...(waiting && { waiting }),
    });
    const asking = { ...session, openCalls: { b: open('approval'), d: open('turn') } };
    expect(await interruptedCalls(store, asking)).toEqual([]);
    const decided = { ...session, openCalls: { b: open(), d: open('turn') } };
    expect((await interruptedCalls(store, decided)).map((call) => call.id)).toEqual(['b', 'd']);
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
    await expect(withSessionLock(id, { ifBusy: 'fail' }, async () => undefined)).rejects.toMatchObject({
      code: 'session-busy',
    });
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
    const arrived = new Promise<void>((resolve) => {
      const unsubscribe = subscribeSession(dbName, 's1', (e) => {
        seen.push(e.id);
        unsubscribe();
        resolve();
      });
    });
    // A worker is another context, as another tab would be. One sender's messages arrive in
    // order, so by the time 's1' arrives the other session's message has been filtered out.
    const source = `const c = new BroadcastChannel('inpage-agent/events/${dbName}'); c.postMessage({ id: 'other-session', sessionId: 's2' }); c.postMessage({ id: 'from-worker', sessionId: 's1' });`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    await arrived;
    worker.terminate();
    expect(seen).toEqual(['from-worker']);
  });
});
