/**
 * inpageChatTransport under the AI SDK's own chat (the AbstractChat useChat
 * runs), over a whole agent in a real worker with IndexedDB: page tools,
 * approvals answered through addToolApprovalResponse, a page that opens again
 * (a new agent on the same session), Stop, and errors.
 */
import { describe, expect, test } from 'vitest';
import { approvalsDecided, inpageChatTransport, loadUIMessages } from '../../src/ai-sdk/index';
import { defineTool, z, type Agent, type AgentEvent, type ModelOptions, type ScriptedTurn } from '../../src/index';
import { agentsClosedAfterEach, calls, killableWorker, responses, uniqueDb } from '../page/helpers';
import { TestChat, textOf, toolParts } from './test-chat';

const start = agentsClosedAfterEach();

function pageTools() {
  const list: string[] = [];
  const dropped: string[] = [];
  const addTodo = defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list on this page.',
    parameters: z.object({ text: z.string().min(1) }),
    execute: ({ text }) => {
      list.push(text);
      return { added: text };
    },
  });
  const clearList = defineTool({
    name: 'clear_list',
    description: 'Deletes every item of the to-do list.',
    annotations: { destructive: true },
    parameters: z.object({}),
    execute: () => {
      dropped.push(...list.splice(0));
      return { cleared: dropped.length };
    },
  });
  return { list, dropped, tools: [addTodo, clearList] };
}

function chatFor(agent: Agent, extra: Partial<ConstructorParameters<typeof TestChat>[0]> = {}) {
  return new TestChat({
    id: agent.sessionId,
    transport: inpageChatTransport(agent),
    sendAutomaticallyWhen: approvalsDecided,
    ...extra,
  });
}

const ready = (chat: TestChat) => chat.status === 'ready' || chat.status === 'error';

/** The session's log once its run has ended (the chat may be ready before the ending is stored). */
async function settledLog(agent: Agent): Promise<AgentEvent[]> {
  let events: AgentEvent[] = [];
  await expect
    .poll(async () => {
      events = (await agent.sessions.get(agent.sessionId))!.events;
      return events.at(-1)?.endReason;
    })
    .toBeDefined();
  return events;
}

/** The calls the log holds with neither a response nor a request for approval that waits. */
function unanswered(events: AgentEvent[]): string[] {
  const answered = new Set(responses(events).map((response) => response.id));
  const asked = events.at(-1)?.endReason === 'awaiting-approval' ? events.at(-1)!.actions?.requestApproval : undefined;
  for (const request of asked ?? []) answered.add(request.callId);
  return calls(events)
    .filter((call) => !answered.has(call.id))
    .map((call) => `${call.name} ${call.id}`);
}

describe('useChat over an agent', () => {
  test('streams the answer and shows each page tool the agent ran, with its input and output', async () => {
    const page = pageTools();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] },
          // A raw turn streams in pieces, as a model's text does.
          { raw: 'Milk is on your list now; anything else to remember?' },
        ],
      },
      tools: page.tools,
      dbName: uniqueDb('chat-stream'),
    });
    const chat = chatFor(agent);
    // The answer's length at each change the chat shows.
    const lengths: number[] = [];
    chat.observe((c) => {
      const text = c.lastMessage?.role === 'assistant' ? textOf(c.lastMessage) : '';
      if (text && lengths.at(-1) !== text.length) lengths.push(text.length);
    });
    await chat.sendMessage({ text: 'Remember to buy milk' });

    expect(chat.error).toBeUndefined();
    expect(page.list).toEqual(['milk']);
    const [, answer] = chat.messages;
    expect(answer.role).toBe('assistant');
    expect(answer.parts.map((part) => part.type)).toEqual(['step-start', 'tool-add_todo', 'step-start', 'text']);
    expect(toolParts(answer)).toEqual([
      expect.objectContaining({ state: 'output-available', input: { text: 'milk' }, output: { added: 'milk' } }),
    ]);
    expect(textOf(answer)).toBe('Milk is on your list now; anything else to remember?');
    // The text arrived piece by piece, not at once.
    expect(lengths.length).toBeGreaterThan(3);
    expect(chat.statuses).toEqual(['submitted', 'streaming', 'ready']);
    // The assistant message's id is the run's: a page that opens again shows the same message.
    expect(answer.id).toMatch(/^inv-/);
  });

  test('a destructive page tool asks first: Approve runs it once, and the run goes on', async () => {
    const page = pageTools();
    page.list.push('milk', 'eggs');
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'clear_list', args: {} }] }, { text: 'Your list is empty now.' }],
      },
      tools: page.tools,
      dbName: uniqueDb('chat-approve'),
    });
    const chat = chatFor(agent);
    await chat.sendMessage({ text: 'Clear my list.' });
    const [asked] = toolParts(chat.lastMessage);
    expect(asked).toMatchObject({
      type: 'tool-clear_list',
      state: 'approval-requested',
      approval: { id: asked.toolCallId },
    });
    expect(page.dropped).toEqual([]);

    await chat.addToolApprovalResponse({ id: asked.approval!.id, approved: true });
    await chat.until((c) => ready(c) && textOf(c.lastMessage).includes('empty'));
    expect(chat.error).toBeUndefined();
    expect(page.dropped).toEqual(['milk', 'eggs']);
    expect(toolParts(chat.lastMessage)).toEqual([
      expect.objectContaining({ state: 'output-available', output: { cleared: 2 } }),
    ]);
    expect(textOf(chat.lastMessage)).toBe('Your list is empty now.');
    expect(chat.messages).toHaveLength(2);
  });

  test('Deny refuses it: the tool never runs, the model reads the refusal and answers', async () => {
    const page = pageTools();
    page.list.push('milk');
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'clear_list', args: {} }] }, { text: 'I left your list as it is.' }],
      },
      tools: page.tools,
      dbName: uniqueDb('chat-deny'),
    });
    const chat = chatFor(agent);
    await chat.sendMessage({ text: 'Clear my list.' });
    const [asked] = toolParts(chat.lastMessage);
    await chat.addToolApprovalResponse({ id: asked.approval!.id, approved: false, reason: 'not now' });
    await chat.until((c) => ready(c) && textOf(c.lastMessage).includes('left'));
    expect(page.dropped).toEqual([]);
    expect(page.list).toEqual(['milk']);
    expect(toolParts(chat.lastMessage)).toEqual([expect.objectContaining({ state: 'output-denied' })]);
    const stored = (await agent.sessions.get(agent.sessionId))!.events;
    expect(
      stored.some((event) => event.actions?.approval?.granted === false && event.actions.approval.reason === 'not now'),
    ).toBe(true);
  });

  test('a turn that also calls a tool needing no approval waits whole: approvalsDecided sends the decision, then both run', async () => {
    const page = pageTools();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'add_todo', args: { text: 'bread' } },
              { name: 'clear_list', args: {} },
            ],
          },
          { text: 'Done both.' },
        ],
      },
      tools: page.tools,
      dbName: uniqueDb('chat-mixed'),
    });
    const chat = chatFor(agent);
    await chat.sendMessage({ text: 'Add bread, then clear the list.' });
    const parts = toolParts(chat.lastMessage);
    expect(parts.map((part) => part.state)).toEqual(['input-available', 'approval-requested']);
    expect(page.list).toEqual([]);
    await chat.addToolApprovalResponse({ id: parts[1].approval!.id, approved: true });
    await chat.until((c) => ready(c) && textOf(c.lastMessage).includes('Done'));
    expect(toolParts(chat.lastMessage).map((part) => part.state)).toEqual(['output-available', 'output-available']);
    expect(page.dropped).toEqual(['bread']);
  });

  test('a new message instead of a decision refuses the waiting call; an Approve clicked on it afterwards shows it was refused', async () => {
    const page = pageTools();
    page.list.push('milk');
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'clear_list', args: {} }] }, { text: 'Something else, then.' }],
      },
      tools: page.tools,
      dbName: uniqueDb('chat-supersede'),
    });
    const chat = chatFor(agent);
    await chat.sendMessage({ text: 'Clear my list.' });
    const asking = chat.lastMessage!;
    const [asked] = toolParts(asking);
    await chat.sendMessage({ text: 'Actually, tell me something else.' });
    expect(textOf(chat.lastMessage)).toBe('Something else, then.');
    expect(chat.error).toBeUndefined();

    await chat.addToolApprovalResponse({ id: asked.approval!.id, approved: true });
    await chat.until((c) => ready(c) && toolParts(c.messages[1])[0].state === 'output-denied');
    expect(page.dropped).toEqual([]);
    expect(page.list).toEqual(['milk']);
    expect(chat.error).toBeUndefined();
  });
});

describe('a page that opens again', () => {
  test('shows the conversation as it was, and an approval asked before the reload is answered after it', async () => {
    const dbName = uniqueDb('chat-reload');
    const model: ModelOptions = {
      engine: 'scripted',
      turns: [
        { toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] },
        { text: 'Added milk.' },
        { toolCalls: [{ name: 'clear_list', args: {} }] },
        { text: 'Cleared.' },
      ],
    };
    const first = pageTools();
    const before = await start({ model, tools: first.tools, dbName });
    const chat = chatFor(before);
    await chat.sendMessage({ text: 'Remember milk.' });
    await chat.sendMessage({ text: 'Now clear the list.' });
    expect(toolParts(chat.lastMessage)[0].state).toBe('approval-requested');
    const shown = chat.messages;
    await before.close();

    const second = pageTools();
    second.list.push('milk');
    const after = await start({ model, tools: second.tools, dbName, sessionId: before.sessionId });
    const restored = await loadUIMessages(after);
    // The same messages, parts and states; the person's messages carry the ids the session gave them.
    const withoutUserIds = (messages: typeof shown) =>
      messages.map((message) => (message.role === 'user' ? { ...message, id: 'user' } : message));
    expect(withoutUserIds(restored)).toEqual(withoutUserIds(shown));

    const reopened = chatFor(after, { messages: restored });
    const [asked] = toolParts(reopened.lastMessage);
    await reopened.addToolApprovalResponse({ id: asked.approval!.id, approved: true });
    await reopened.until((c) => ready(c) && textOf(c.lastMessage).includes('Cleared'));
    expect(reopened.error).toBeUndefined();
    expect(second.dropped).toEqual(['milk']);
  });

  test('resume goes on with the run the reload cut off, replaying its message from the start', async () => {
    const dbName = uniqueDb('chat-resume');
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = defineTool({
      name: 'slow_lookup',
      description: 'Looks something up, slowly.',
      annotations: { readOnly: true },
      parameters: z.object({ what: z.string() }),
      execute: () => {
        started();
        return new Promise(() => undefined);
      },
    });
    const model: ModelOptions = {
      engine: 'scripted',
      turns: [
        { text: 'Let me look.', toolCalls: [{ name: 'slow_lookup', args: { what: 'trains' } }] },
        { text: 'The lookup was cut off; shall I try again?' },
      ],
    };
    const worker = killableWorker();
    const before = await start({ model, tools: [slow], dbName, workerUrl: worker.workerUrl, restart: 'never' });
    const chat = chatFor(before);
    const sent = chat.sendMessage({ text: 'When is the next train?' });
    await running;
    worker.kill();
    await sent;

    const after = await start({ model, tools: [slow], dbName, sessionId: before.sessionId });
    const restored = await loadUIMessages(after);
    expect(textOf(restored.at(-1))).toBe('Let me look.');
    const reopened = chatFor(after, { messages: restored });
    await reopened.resumeStream();
    expect(reopened.error).toBeUndefined();
    expect(reopened.messages).toHaveLength(2);
    const answer = reopened.lastMessage!;
    expect(answer.id).toBe(restored.at(-1)!.id);
    expect(textOf(answer)).toBe('Let me look.The lookup was cut off; shall I try again?');
    expect(toolParts(answer)).toEqual([expect.objectContaining({ state: 'output-error', errorText: 'interrupted' })]);

    // Nothing is left to resume: the chat stays as it is.
    await reopened.resumeStream();
    expect(reopened.messages).toHaveLength(2);
    expect(reopened.status).toBe('ready');
  });
});

describe('Stop and errors', () => {
  test('Stop aborts the run: the session records it as aborted, and the next message runs', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ raw: `${'word '.repeat(50)}`, delayMs: 600_000 }, { text: 'Here now.' }] },
      dbName: uniqueDb('chat-stop'),
    });
    const chat = chatFor(agent);
    // Stopped once the run is under way: the person's message is in the session.
    const stored = new Promise<void>((resolve) => {
      const stop = agent.sessions.subscribe(agent.sessionId, (event) => {
        if (event.author === 'user' && event.content) (stop(), resolve());
      });
    });
    const sent = chat.sendMessage({ text: 'Talk for a while.' });
    await stored;
    await chat.stop();
    await sent;
    await expect
      .poll(async () => (await agent.sessions.get(agent.sessionId))!.events.at(-1)?.endReason)
      .toBe('aborted');
    await chat.sendMessage({ text: 'Again.' });
    expect(textOf(chat.lastMessage)).toBe('Here now.');
  });

  test('Stop at the first chunk leaves no call in the log without a response, whatever the turn holds', async () => {
    const turns: Record<string, ScriptedTurn> = {
      'a call that asks first': { text: 'Clearing.', toolCalls: [{ name: 'clear_list', args: {} }] },
      'a call that runs at once and one that asks first': {
        toolCalls: [
          { name: 'add_todo', args: { text: 'bread' } },
          { name: 'clear_list', args: {} },
        ],
      },
      'a call that runs at once': { toolCalls: [{ name: 'add_todo', args: { text: 'bread' } }] },
    };
    for (const [name, turn] of Object.entries(turns)) {
      const page = pageTools();
      const agent = await start({
        model: { engine: 'scripted', turns: [turn, { text: 'Done.' }] },
        tools: page.tools,
        dbName: uniqueDb('chat-stop-first'),
      });
      const chat = chatFor(agent);
      const stop = chat.observe((c) => {
        if (c.lastMessage?.role !== 'assistant') return;
        stop();
        void c.stop();
      });
      await chat.sendMessage({ text: 'Go.' });
      await chat.until(ready);
      const events = await settledLog(agent);
      expect({ turn: name, unanswered: unanswered(events) }).toEqual({ turn: name, unanswered: [] });
      expect(page.dropped).toEqual([]);
    }
  });

  test('Stop while the page decides whether a call needs approval: every call of the turn is answered aborted, none runs, and the next message runs', async () => {
    const page = pageTools();
    let chat!: TestChat;
    // A rule that reads the page's state (here: the person presses Stop while it is read).
    const careful = defineTool({
      name: 'clear_done',
      description: 'Deletes the finished items of the to-do list.',
      parameters: z.object({}),
      needsApproval: () => {
        void chat.stop();
        return true;
      },
      execute: () => {
        page.dropped.push('done items');
        return { cleared: true };
      },
    });
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            text: 'Tidying up.',
            toolCalls: [
              { name: 'add_todo', args: { text: 'bread' } },
              { name: 'clear_done', args: {} },
            ],
          },
          { text: 'Here now.' },
        ],
      },
      tools: [...page.tools, careful],
      dbName: uniqueDb('chat-stop-gate'),
    });
    chat = chatFor(agent);
    await chat.sendMessage({ text: 'Add bread and tidy up.' });
    await chat.until(ready);
    const events = await settledLog(agent);
    expect(events.at(-1)?.endReason).toBe('aborted');
    expect(unanswered(events)).toEqual([]);
    expect(responses(events).map((response) => [response.name, response.error])).toEqual([
      ['add_todo', 'aborted: the run was stopped before this call finished.'],
      ['clear_done', 'aborted: the run was stopped before this call finished.'],
    ]);
    expect(page.list).toEqual([]);
    expect(page.dropped).toEqual([]);
    await chat.sendMessage({ text: 'Again.' });
    expect(textOf(chat.lastMessage)).toBe('Here now.');
    expect(page.dropped).toEqual([]);
  });

  test("a run that fails leaves the chat in error with the agent's AgentError and its code", async () => {
    const agent = await start({ model: { engine: 'scripted', turns: [] }, dbName: uniqueDb('chat-error') });
    const chat = chatFor(agent);
    await chat.sendMessage({ text: 'Hello?' });
    expect(chat.status).toBe('error');
    expect(chat.error).toMatchObject({ name: 'AgentError', code: 'script-exhausted' });
  });

  test('a run refused at its start (the session busy, with ifBusy: fail) leaves the chat in error with session-busy', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'Slowly.', delayMs: 600_000 }] },
      dbName: uniqueDb('chat-busy'),
    });
    const holder = new AbortController();
    const holding = agent.run('Hold the session.', { signal: holder.signal });
    // The other run holds the session once its message is stored.
    for await (const event of holding) if (event.author === 'user') break;
    const chat = new TestChat({
      id: agent.sessionId,
      transport: inpageChatTransport(agent, { runOptions: { ifBusy: 'fail' } }),
    });
    await chat.sendMessage({ text: 'Me too.' });
    expect(chat.status).toBe('error');
    expect(chat.error).toMatchObject({ code: 'session-busy' });
    holder.abort();
  });

  test('a chat id that is not the session, regenerate, and an edited message are refused, saying what to do', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'Hi.' }] },
      dbName: uniqueDb('chat-refused'),
    });
    const stranger = new TestChat({ id: 'another-chat', transport: inpageChatTransport(agent) });
    await stranger.sendMessage({ text: 'Hello.' });
    expect(stranger.error).toMatchObject({
      code: 'invalid-options',
      message: expect.stringContaining('useChat({ id: agent.sessionId })'),
    });

    const chat = chatFor(agent);
    await chat.sendMessage({ text: 'Hello.' });
    await chat.regenerate();
    expect(chat.error).toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('Send the question again'),
    });
  });
});
