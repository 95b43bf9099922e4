/**
 * approve() racing close(): the agent closes while a person's decision is on
 * its way, stored, or being carried out. approve() then rejects with
 * `closed`, and its details say what happened, so a page can tell the person
 * the truth: whether the decision was stored, and whether the tool ran.
 * Each claim is checked against the session reopened afterwards. The moments
 * are states (the decision sent, stored, the tool running, the tool done),
 * never times.
 */
import { describe, expect, test } from 'vitest';
import { AgentError, defineTool, z, type Agent, type AgentEvent } from '../../src/index';
import { agentsClosedAfterEach, responses, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

type Moment = 'at once' | 'decision stored' | 'before the tool starts' | 'tool running' | 'tool answered';

/** Resolves when the agent's stream shows the state. */
function when(agent: Agent, test: (event: AgentEvent) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: Event) => {
      if (test((event as CustomEvent<AgentEvent>).detail)) {
        agent.removeEventListener('event', listener);
        resolve();
      }
    };
    agent.addEventListener('event', listener);
  });
}

describe('approve() racing close() says what happened', () => {
  const moments: Moment[] = ['at once', 'decision stored', 'before the tool starts', 'tool running', 'tool answered'];
  for (const moment of moments) {
    test(`closing: ${moment}`, async () => {
      const dbName = uniqueDb('approve-close');
      const ran: string[] = [];
      let running!: () => void;
      const started = new Promise<void>((resolve) => (running = resolve));
      const wipe = defineTool({
        name: 'wipe',
        description: 'Deletes everything.',
        annotations: { destructive: true },
        parameters: z.object({}),
        execute: async () => {
          ran.push('wipe');
          running();
          // Long enough for close() to land while it runs; it is stopped by close.
          await new Promise((resolve) => setTimeout(resolve, moment === 'tool running' ? 2_000 : 0));
          return 'wiped';
        },
      });
      const turns = [{ toolCalls: [{ name: 'wipe', args: {} }] }, { text: 'Wiped.' }];
      // A page callback that holds the call between its stored decision and its start.
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const agent = await start({
        model: { engine: 'scripted', turns },
        tools: [wipe],
        dbName,
        ...(moment === 'before the tool starts' && {
          callbacks: {
            beforeTool: () => {
              holding();
              return new Promise(() => undefined);
            },
          },
        }),
      });
      await agent.send('wipe it');
      const [asked] = await agent.pendingApprovals();
      const callId = asked!.callId;

      const stored = when(agent, (e) => e.actions?.approval?.callId === callId);
      const answered = when(agent, (e) => responses([e]).some((r) => r.id === callId));
      const approving = agent.approve(callId);
      approving.catch(() => undefined);
      if (moment === 'decision stored') await stored;
      if (moment === 'before the tool starts') await held;
      if (moment === 'tool running') await started;
      if (moment === 'tool answered') await answered;
      await agent.close();

      const outcome = await approving.then(
        () => undefined,
        (error: unknown) => error,
      );
      const reopened = await start({
        model: { engine: 'scripted', turns: [{ text: 'Wiped.' }] },
        tools: [wipe],
        dbName,
        sessionId: agent.sessionId,
      });
      const pending = (await reopened.pendingApprovals()).map((a) => a.callId);
      const events = (await reopened.sessions.get(reopened.sessionId))!.events;
      const decisionInLog = events.some((e) => e.actions?.approval?.callId === callId);

      if (outcome === undefined) {
        // The run finished before the close: nothing to explain.
        expect(ran).toEqual(['wipe']);
        expect(decisionInLog).toBe(true);
        return;
      }
      expect(outcome).toBeInstanceOf(AgentError);
      const error = outcome as AgentError;
      expect(error.code).toBe('closed');
      const details = error.details as { callId: string; decisionStored: boolean; toolRan: boolean };
      expect(details.callId).toBe(callId);
      expect(typeof details.decisionStored).toBe('boolean');
      expect(details.decisionStored).toBe(decisionInLog);
      expect(details.toolRan).toBe(ran.length > 0);
      if (!details.decisionStored) {
        // Not stored: the call still waits, and can be approved by the next agent.
        expect(pending).toEqual([callId]);
        expect(error.message).toMatch(/not stored.*still waits/);
      } else {
        expect(pending).toEqual([]);
        expect(error.message).toMatch(details.toolRan ? /stored.*ran/ : /stored.*did not run/);
      }
      if (moment !== 'at once') expect(details.decisionStored).toBe(true);
      if (moment === 'before the tool starts') expect(details.toolRan).toBe(false);
      if (moment === 'tool running' || moment === 'tool answered') expect(details.toolRan).toBe(true);
    });
  }
});
