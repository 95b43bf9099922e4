/**
 * The call ledger (src/session/call-ledger.ts), walked through each step of
 * a call's life, and the rules it holds a log from outside to: every forged
 * shape that an import refuses (forged-imports.browser.test.ts) is refused
 * here at the same event, for the same reason.
 */
import { describe, expect, test } from 'vitest';
import {
  applyToLedger,
  callLedgerOf,
  callPhase,
  longRunningCall,
  newCallLedger,
  oldestAskingTurn,
  openCallsIn,
  pausedTurn,
  waitsOnPurpose,
  type CallLedger,
} from '../../src/session/call-ledger';
import { typed, type AgentEvent, type ApprovalRequest } from '../../src/session/event';

type Draft = Partial<AgentEvent>;

const call = (id: string, name = 'save', args: unknown = {}) => ({ functionCall: { id, name, args } });
const answer = (id: string, name = 'save', error?: string) => ({
  functionResponse: { id, name, response: error ? null : { ok: true }, ...(error && { error }) },
});
const user = (text: string): Draft => ({ author: 'user', content: { role: 'user', parts: [{ text }] } });
const model = (...parts: ReturnType<typeof call>[]): Draft => ({ content: { role: 'model', parts } });
const tool = (...parts: ReturnType<typeof answer>[]): Draft => ({ content: { role: 'tool', parts } });
const ask = (...asked: Partial<ApprovalRequest>[]): Draft => ({
  actions: { requestApproval: asked as ApprovalRequest[] },
  endReason: 'awaiting-approval',
});
const askFor = (callId: string, name = 'save', args: unknown = {}) => ask({ callId, name, args });
const decide = (callId: string, granted: boolean, reason?: string): Draft => ({
  author: 'user',
  actions: { approval: { callId, granted, ...(reason && { reason }) } },
});

/** A log of drafts, numbered from 1 as a session's events are. */
function eventsOf(...drafts: Draft[]): AgentEvent[] {
  return drafts.map((draft, i) =>
    typed({
      id: `ev-${i + 1}`,
      sessionId: 's',
      invocationId: 'inv-1',
      author: 'assistant',
      seq: i + 1,
      timestamp: 1_000 + i,
      ...draft,
    }),
  );
}

/** Folds the drafts one by one, with the phase of `id` after each. */
function phasesOf(id: string, ...drafts: Draft[]): (string | undefined)[] {
  const ledger = newCallLedger();
  return eventsOf(...drafts).map((event) => {
    expect(applyToLedger(ledger, event)).toBeUndefined();
    return callPhase(ledger, id);
  });
}

describe("a call's life, event by event", () => {
  test('made, then answered: open until its answer', () => {
    expect(phasesOf('a', user('save it'), model(call('a')), tool(answer('a')))).toEqual([
      undefined,
      'made',
      'answered',
    ]);
    const ledger = callLedgerOf(eventsOf(model(call('a'), call('b')), tool(answer('a'))));
    expect(Object.keys(openCallsIn(ledger))).toEqual(['b']);
    expect(openCallsIn(ledger).b).toEqual({ name: 'save', seq: 1, invocationId: 'inv-1', author: 'assistant' });
  });

  test('asked about, approved, then run and answered', () => {
    expect(phasesOf('a', model(call('a')), askFor('a'), decide('a', true), tool(answer('a')))).toEqual([
      'made',
      'awaiting-approval',
      'approved',
      'answered',
    ]);
  });

  test('asked about, rejected, then answered with the rejection', () => {
    expect(phasesOf('a', model(call('a')), askFor('a'), decide('a', false, 'no'), tool(answer('a')))).toEqual([
      'made',
      'awaiting-approval',
      'rejected',
      'answered',
    ]);
  });

  test('long-running: waits for its result, however many events come between', () => {
    const phases = phasesOf(
      'a',
      model(call('a')),
      { ...tool(), longRunningToolIds: ['a'] },
      user('meanwhile'),
      model(),
      tool(answer('a')),
    );
    expect(phases).toEqual(['made', 'long-running', 'long-running', 'long-running', 'answered']);
    const waiting = callLedgerOf(eventsOf(model(call('a', 'fetch')), { longRunningToolIds: ['a'] }));
    expect(longRunningCall(openCallsIn(waiting), 'a')).toMatchObject({ name: 'fetch', seq: 1 });
    expect(longRunningCall(openCallsIn(waiting), 'b')).toBeUndefined();
  });

  test('cut off by a crash: interrupted once the repair answers it', () => {
    expect(phasesOf('a', model(call('a')), tool(answer('a', 'save', 'interrupted')))).toEqual(['made', 'interrupted']);
  });

  test('a late answer is recorded, never used: the call stays as it was', () => {
    const ledger = callLedgerOf(eventsOf(model(call('a')), { ...tool(answer('a')), late: true }));
    expect(callPhase(ledger, 'a')).toBe('made');
    expect(Object.keys(openCallsIn(ledger))).toEqual(['a']);
  });

  test('asked again after a decision: the decision no longer counts', () => {
    expect(phasesOf('a', model(call('a')), askFor('a'), decide('a', true), askFor('a'))).toEqual([
      'made',
      'awaiting-approval',
      'approved',
      'awaiting-approval',
    ]);
    const ledger = callLedgerOf(eventsOf(model(call('a')), askFor('a'), decide('a', true), askFor('a')));
    expect(pausedTurn(ledger)?.decided.size).toBe(0);
  });

  test('a decision with no request before it (as onApproval records one) decides nothing', () => {
    const ledger = callLedgerOf(eventsOf(model(call('a')), decide('a', true)));
    expect(callPhase(ledger, 'a')).toBe('made');
    expect(pausedTurn(ledger)).toBeUndefined();
  });

  test('a call never made has no phase', () => {
    expect(callPhase(callLedgerOf(eventsOf(model(call('a')))), 'b')).toBeUndefined();
  });
});

describe('the turn paused for a person', () => {
  const turn = [user('clean up'), model(call('d', 'delete'), call('r', 'read'))];

  test('paused on its request, with the calls asked, the decisions that count and the arguments shown', () => {
    const ledger = callLedgerOf(eventsOf(...turn, askFor('d', 'delete', { all: true }), decide('d', false, 'no')));
    const paused = pausedTurn(ledger)!;
    expect(paused.modelEvent.seq).toBe(2);
    expect(paused.pausedOn?.seq).toBe(3);
    expect([...paused.asked.keys()]).toEqual(['d']);
    expect(paused.decided.get('d')).toEqual({ granted: false, reason: 'no', args: { all: true } });
  });

  test('a second decision on a call does not count: the first one holds', () => {
    const ledger = callLedgerOf(eventsOf(...turn, askFor('d', 'delete'), decide('d', false), decide('d', true)));
    expect(pausedTurn(ledger)?.decided.get('d')?.granted).toBe(false);
  });

  test('the other calls of the turn wait with the asked one, and not once it is decided', () => {
    const asking = callLedgerOf(eventsOf(...turn, askFor('d', 'delete')));
    const waits = waitsOnPurpose(openCallsIn(asking));
    expect(Object.values(openCallsIn(asking)).map(waits)).toEqual([true, true]);
    expect(oldestAskingTurn(openCallsIn(asking))).toBe(2);
    const decided = callLedgerOf(eventsOf(...turn, askFor('d', 'delete'), decide('d', true)));
    const open = openCallsIn(decided);
    expect(Object.values(open).map(waitsOnPurpose(open))).toEqual([false, false]);
    expect(oldestAskingTurn(open)).toBeUndefined();
  });

  test('an answer or a new model turn moves on: nothing is paused', () => {
    expect(pausedTurn(callLedgerOf(eventsOf(...turn, askFor('d', 'delete'), tool(answer('r', 'read')))))).toBe(
      undefined,
    );
    expect(pausedTurn(callLedgerOf(eventsOf(...turn, askFor('d', 'delete'), model())))).toBeUndefined();
    // A late answer moves nothing on.
    const late = { ...tool(answer('x')), late: true };
    expect(pausedTurn(callLedgerOf(eventsOf(...turn, askFor('d', 'delete'), late)))).toBeDefined();
  });

  test('a request that breaks the rule leaves its turn asking nothing, whatever comes after', () => {
    const ledger = callLedgerOf(eventsOf(...turn, askFor('d', 'read'), askFor('r', 'read')));
    expect(pausedTurn(ledger)).toBeUndefined();
  });
});

describe('open calls kept on the session record', () => {
  test('folded after a record, the record is never written, and is the same object when nothing changes', () => {
    const record = openCallsIn(callLedgerOf(eventsOf(model(call('a'), call('b')))));
    const copy = structuredClone(record);
    expect(openCallsIn(callLedgerOf(eventsOf(user('hi'), tool(answer('x'))), record))).toBe(record);
    const answered = callLedgerOf([{ ...eventsOf(tool(answer('a')))[0]!, seq: 2 }], record);
    expect(Object.keys(openCallsIn(answered))).toEqual(['b']);
    expect(callPhase(answered, 'b')).toBe('made');
    expect(record).toEqual(copy);
  });

  test('no call id reaches a prototype', () => {
    const ledger = callLedgerOf(eventsOf(model(call('__proto__'), call('constructor'))));
    expect(Object.keys(openCallsIn(ledger)).sort()).toEqual(['__proto__', 'constructor']);
    expect(callPhase(newCallLedger({}), 'constructor')).toBeUndefined();
    expect(longRunningCall({}, 'constructor')).toBeUndefined();
  });
});

/** The first event a log breaks a rule at (its seq, and why), folded from its first event. */
function firstBroken(...drafts: Draft[]): { seq: number; problem: string } | undefined {
  const ledger: CallLedger = newCallLedger();
  for (const event of eventsOf(...drafts)) {
    const problem = applyToLedger(ledger, event);
    if (problem) return { seq: event.seq, problem };
  }
  return undefined;
}

describe('what a log from outside may hold: the forged shapes are refused at the event that breaks the rule', () => {
  const forged: { name: string; drafts: Draft[]; seq: number; says: RegExp }[] = [
    {
      name: 'a request that shows another tool than its call',
      drafts: [user('tidy'), model(call('X', 'delete_all')), askFor('X', 'read_page')],
      seq: 3,
      says: /"read_page".*"delete_all"/,
    },
    {
      name: 'a request for an id no call of its turn has',
      drafts: [user('add'), model(call('Z', 'add')), tool(answer('Z', 'add')), askFor('Q', 'add')],
      seq: 4,
      says: /"Q"/,
    },
    {
      name: 'a request for a call answered already',
      drafts: [
        user('delete'),
        model(call('Z', 'delete_all')),
        tool(answer('Z', 'delete_all')),
        askFor('Z', 'delete_all'),
      ],
      seq: 4,
      says: /"Z".*answered/,
    },
    {
      name: 'two calls of one model event that share an id',
      drafts: [user('delete'), model(call('D'), call('D')), askFor('D')],
      seq: 2,
      says: /"D".*unique/,
    },
    {
      name: 'a call id used again by a later model event',
      drafts: [model(call('D', 'add')), tool(answer('D', 'add')), user('now delete'), model(call('D', 'delete_all'))],
      seq: 4,
      says: /"D".*unique/,
    },
    {
      name: 'a request for a turn whose other call was answered already',
      drafts: [model(call('Z', 'add'), call('W', 'delete_all')), tool(answer('Z', 'add')), askFor('W', 'delete_all')],
      seq: 3,
      says: /"Z" of its turn was answered/,
    },
    {
      name: 'a request that shows no arguments',
      drafts: [model(call('T', 'drop_table', { table: 'users' })), ask({ callId: 'T', name: 'drop_table' })],
      seq: 2,
      says: /no arguments for call "T"/,
    },
    { name: 'a request that asks about no call', drafts: [model(call('T')), ask()], seq: 2, says: /no call/ },
    {
      name: 'a request that asks about one call twice',
      drafts: [model(call('T')), ask({ callId: 'T', name: 'save', args: {} }, { callId: 'T', name: 'save', args: {} })],
      seq: 2,
      says: /"T" twice/,
    },
    {
      name: 'a request with no model event before it',
      drafts: [user('hi'), askFor('T')],
      seq: 2,
      says: /no model event/,
    },
    {
      name: 'a call answered twice',
      drafts: [model(call('Z')), tool(answer('Z')), tool(answer('Z'))],
      seq: 3,
      says: /"Z" a second time/,
    },
    {
      name: 'an answer to a call no event made',
      drafts: [user('hi'), tool(answer('N'))],
      seq: 2,
      says: /"N".*no earlier/,
    },
  ];
  for (const { name, drafts, seq, says } of forged)
    test(name, () => {
      const broken = firstBroken(...drafts);
      expect(broken?.seq).toBe(seq);
      expect(broken?.problem).toMatch(says);
    });

  test("the runtime's own shapes keep every rule: decided turns, asked again, late answers, long-running calls, repairs", () => {
    expect(
      firstBroken(
        user('clean up'),
        model(call('d', 'delete'), call('r', 'read')),
        askFor('d', 'delete'),
        decide('d', true),
        tool(answer('d', 'delete'), answer('r', 'read')),
        { ...tool(answer('d', 'delete')), late: true },
        model(call('l', 'fetch'), call('c', 'save')),
        { ...tool(), longRunningToolIds: ['l'] },
        tool(answer('c', 'save', 'interrupted')),
        model(call('t', 'drop')),
        askFor('t', 'drop'),
        decide('t', true),
        askFor('t', 'drop'),
        tool(answer('l', 'fetch')),
      ),
    ).toBeUndefined();
  });
});
