// <inpage-agent-chat> in real Chromium with the real worker: what a visitor types runs, each call shows in a
// card with its arguments and result, a person decides in the card (focus on the safe choice), Stop stops,
// the reply reaches a screen reader once, the words and the colours are the page's to change, a reload finds
// the conversation, a message typed before the agent is ready runs once it is, and attributes alone make an
// agent that reads the page's marked forms.
import { afterEach, describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentOptions } from '../../src/index';
import { InpageAgentChat } from '../../src/chat/index';
import { uniqueDb } from '../page/helpers';

const agents: Agent[] = [];
afterEach(async () => {
  for (const chat of document.querySelectorAll('inpage-agent-chat')) chat.remove();
  for (const form of document.querySelectorAll('form')) form.remove();
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

async function agentFor(options: Partial<AgentOptions> & Pick<AgentOptions, 'model'>): Promise<Agent> {
  const agent = await createAgent({ dbName: uniqueDb('chat'), ...options });
  agents.push(agent);
  return agent;
}

function mount(attributes: Record<string, string> = {}): InpageAgentChat {
  const chat = document.createElement('inpage-agent-chat');
  for (const [name, value] of Object.entries(attributes)) chat.setAttribute(name, value);
  chat.style.height = '480px';
  document.body.append(chat);
  return chat;
}

const inside = (chat: InpageAgentChat) => chat.shadowRoot!;
const $ = <T extends Element = HTMLElement>(chat: InpageAgentChat, selector: string) =>
  inside(chat).querySelector<T>(selector)!;
const $$ = (chat: InpageAgentChat, selector: string) => [...inside(chat).querySelectorAll<HTMLElement>(selector)];

/** Types into the chat's box and presses Enter, as a visitor does. */
function type(chat: InpageAgentChat, text: string): void {
  const prompt = $<HTMLTextAreaElement>(chat, '#prompt');
  prompt.value = text;
  prompt.dispatchEvent(new Event('input'));
  prompt.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
}

const idle = (chat: InpageAgentChat) => !$(chat, '#send').hidden && $(chat, '#stop').hidden && !chat.running;
const cards = (chat: InpageAgentChat) =>
  $$(chat, 'li.card').map((card) => `${card.dataset.tool} ${card.dataset.state}`);
const replies = (chat: InpageAgentChat) => $$(chat, 'li.msg.model:not(.thought) .text').map((text) => text.textContent);

function todoTools() {
  const list: string[] = [];
  const addTodo = defineTool({
    name: 'add_todo',
    displayName: 'Add to-do',
    description: 'Add a to-do.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => (list.push(text), { added: text }),
  });
  const clearTodos = defineTool({
    name: 'clear_todos',
    displayName: 'Clear all to-dos',
    description: 'Remove every to-do.',
    annotations: { destructive: true },
    parameters: z.object({}),
    execute: () => ({ removed: list.splice(0).length }),
  });
  return { list, tools: [addTodo, clearTodos] };
}

/** A visitor asked for tea in a chat, which added it and said so; then the page went (chat and agent closed). */
async function teaOnce(dbName: string) {
  const { tools } = todoTools();
  const first = await createAgent({
    dbName,
    model: {
      engine: 'scripted',
      turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'tea' } }] }, { text: 'Added tea.' }],
    },
    tools,
  });
  const chat = mount();
  chat.agent = first;
  type(chat, 'add tea');
  await expect.poll(() => replies(chat)).toEqual(['Added tea.']);
  await expect.poll(() => idle(chat)).toBe(true);
  chat.remove();
  await first.close();
  return { tools, first };
}

describe('<inpage-agent-chat> with an agent', () => {
  test('a request typed and sent shows the message, a card with the call’s arguments and result, and the reply, which a screen reader hears whole', async () => {
    const { list, tools } = todoTools();
    const chat = mount();
    chat.agent = await agentFor({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] }, { text: 'I added milk.' }],
      },
      tools,
    });
    await expect.poll(() => chat.agent).toBeDefined();
    type(chat, 'Remember to buy milk');
    await expect.poll(() => replies(chat)).toEqual(['I added milk.']);
    await expect.poll(() => idle(chat)).toBe(true);
    expect(list).toEqual(['milk']);
    expect($$(chat, 'li.msg.user').map((item) => item.textContent)).toEqual(['Remember to buy milk']);
    expect(cards(chat)).toEqual(['add_todo done']);
    const card = $(chat, 'li.card');
    expect(card.querySelector('.card-name')!.textContent).toBe('Add to-do');
    expect(JSON.parse(card.querySelector('.card-args')!.textContent!)).toEqual({ text: 'milk' });
    expect(JSON.parse(card.querySelector('.card-result')!.textContent!)).toEqual({ added: 'milk' });
    // Copy and Retry under the reply; the box is empty and has the focus again.
    expect($$(chat, 'li.msg.model .msg-actions button').map((button) => button.textContent)).toEqual(['Copy', 'Retry']);
    expect($<HTMLTextAreaElement>(chat, '#prompt').value).toBe('');
    expect(inside(chat).activeElement?.id).toBe('prompt');
    // The conversation itself is not a live region (it would read every streamed word); the reply is said once.
    expect($(chat, '#log').getAttribute('aria-live')).toBe('off');
    await expect.poll(() => $(chat, '#announcer').textContent).toBe('I added milk.');
  });

  test('onApproval: chat.approve asks in the call’s card with the focus on “Don’t allow”; the choice decides it', async () => {
    const { list, tools } = todoTools();
    list.push('milk', 'tea');
    const chat = mount();
    chat.agent = await agentFor({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'clear_todos', args: {} }] },
          { text: 'I did not clear it.' },
          { toolCalls: [{ name: 'clear_todos', args: {} }] },
          { text: 'Cleared.' },
        ],
      },
      tools,
      onApproval: (call) => chat.approve(call),
    });
    type(chat, 'clear my list');
    await expect.poll(() => cards(chat)).toEqual(['clear_todos approval']);
    expect(inside(chat).activeElement?.getAttribute('data-choice')).toBe('deny');
    expect($(chat, 'li.card .card-note').textContent).toBe('This cannot be undone. Allow it?');
    await expect
      .poll(() => $(chat, '#announcer').textContent)
      .toBe('“Clear all to-dos” waits for you: allow it or not.');
    $(chat, 'li.card button[data-choice="deny"]').click();
    await expect.poll(() => replies(chat)).toEqual(['I did not clear it.']);
    expect(cards(chat)).toEqual(['clear_todos denied']);
    expect(list).toEqual(['milk', 'tea']);

    await expect.poll(() => idle(chat)).toBe(true);
    type(chat, 'clear it, really');
    await expect.poll(() => $$(chat, 'li.card[data-state="approval"]').length).toBe(1);
    $(chat, 'li.card[data-state="approval"] button[data-choice="allow"]').click();
    await expect.poll(() => replies(chat)).toEqual(['I did not clear it.', 'Cleared.']);
    expect(cards(chat)).toEqual(['clear_todos denied', 'clear_todos done']);
    expect(list).toEqual([]);
  });

  test('without onApproval the run pauses: the card asks, and Allow goes on with the run (agent.approve)', async () => {
    const { list, tools } = todoTools();
    list.push('milk');
    const chat = mount();
    chat.agent = await agentFor({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'clear_todos', args: {} }] }, { text: 'Cleared.' }] },
      tools,
    });
    type(chat, 'clear my list');
    await expect.poll(() => cards(chat)).toEqual(['clear_todos approval']);
    await expect.poll(() => idle(chat)).toBe(true);
    expect(inside(chat).activeElement?.getAttribute('data-choice')).toBe('deny');
    $(chat, 'li.card button[data-choice="allow"]').click();
    await expect.poll(() => replies(chat)).toEqual(['Cleared.']);
    expect(cards(chat)).toEqual(['clear_todos done']);
    expect(list).toEqual([]);
  });

  test('a card that asks shows what the call would be given; a tool that asks without being destructive is not said to be final', async () => {
    const sendMail = defineTool({
      name: 'send_mail',
      displayName: 'Send a mail',
      description: 'Send a mail.',
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: () => ({ sent: true }),
    });
    const chat = mount();
    chat.agent = await agentFor({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'send_mail', args: { to: 'ana@example.com' } }] }, { text: 'Sent.' }],
      },
      tools: [sendMail],
      onApproval: (call) => chat.approve(call),
    });
    type(chat, 'mail Ana');
    await expect.poll(() => cards(chat)).toEqual(['send_mail approval']);
    expect($(chat, 'li.card .card-note').textContent).toBe('Allow it?');
    expect($<HTMLDetailsElement>(chat, 'li.card details').open).toBe(true);
    expect(JSON.parse($(chat, 'li.card .card-args').textContent!)).toEqual({ to: 'ana@example.com' });
    $(chat, 'li.card button[data-choice="allow"]').click();
    await expect.poll(() => replies(chat)).toEqual(['Sent.']);
  });

  test('Stop keeps what arrived and says it stopped; the next message works', async () => {
    let release!: () => void;
    const wait = defineTool({
      name: 'wait',
      description: 'Waits.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((resolve, reject) => {
          release = () => resolve('done');
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const chat = mount();
    chat.agent = await agentFor({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'wait', args: {} }] }, { text: 'Hello again.' }] },
      tools: [wait],
    });
    type(chat, 'wait for it');
    await expect.poll(() => typeof release).toBe('function');
    expect(inside(chat).activeElement?.id).toBe('stop');
    $(chat, '#stop').click();
    await expect.poll(() => $$(chat, 'li.msg.status-line').map((line) => line.textContent)).toEqual(['Stopped.']);
    await expect.poll(() => idle(chat)).toBe(true);
    type(chat, 'hello');
    await expect.poll(() => replies(chat)).toEqual(['Hello again.']);
  });

  test('a message typed before the agent is there shows at once and runs once it is; one the agent could not start for stays, with the reason', async () => {
    const chat = mount();
    let give!: (agent: Agent) => void;
    chat.agent = new Promise<Agent>((resolve) => (give = resolve));
    type(chat, 'hi');
    expect($$(chat, 'li.msg.user.pending').map((item) => item.textContent)).toEqual(['hi']);
    expect($(chat, 'li.msg.working .working-text').textContent).toBe('Getting the model ready…');
    give(await agentFor({ model: { engine: 'scripted', turns: [{ text: 'Hello.' }] } }));
    await expect.poll(() => replies(chat)).toEqual(['Hello.']);
    expect($$(chat, 'li.msg.user').map((item) => item.className)).toEqual(['msg user']);

    const failing = mount({ id: 'failing' });
    failing.agent = Promise.reject(new Error('no model'));
    type(failing, 'hello?');
    await expect
      .poll(() => $$(failing, 'li.msg.user.unsent .unsent-reason').map((item) => item.textContent))
      .toEqual(['Not sent: the agent could not start. Reload the page, or try again.']);
  });

  test('a reload finds the conversation: a new chat with the agent of the same session draws it from its events', async () => {
    const dbName = uniqueDb('chat-reload');
    const { tools, first } = await teaOnce(dbName);

    const again = mount();
    const shown: number[] = [];
    again.onSession = (events) => void shown.push(events.length);
    again.agent = await agentFor({
      dbName,
      sessionId: first.sessionId,
      model: { engine: 'scripted', turns: [] },
      tools,
    });
    await expect.poll(() => replies(again)).toEqual(['Added tea.']);
    expect(cards(again)).toEqual(['add_todo done']);
    expect($$(again, 'li.msg.user').map((item) => item.textContent)).toEqual(['add tea']);
    expect(shown).toEqual([4]);
  });

  test('after a reload the stored conversation shows at once, while the agent still loads its model, with a line counting the seconds; the agent then takes it, and the page is told of it once', async () => {
    const dbName = uniqueDb('chat-early');
    const { tools, first } = await teaOnce(dbName);

    // The reloaded page: its agent is still starting (a model loading), and the chat is shown the stored session.
    const again = mount();
    const shown: number[] = [];
    again.onSession = (events) => void shown.push(events.length);
    let ready!: (agent: Agent) => void;
    again.agent = new Promise<Agent>((resolve) => (ready = resolve));
    expect(await again.showStoredSession(first.sessionId, { dbName })).toHaveLength(4);
    expect(replies(again)).toEqual(['Added tea.']);
    expect(cards(again)).toEqual(['add_todo done']);
    expect($$(again, 'li.msg.user').map((item) => item.textContent)).toEqual(['add tea']);
    expect(again.isEmpty).toBe(false);
    expect(shown).toEqual([4]);
    const line = () => $$(again, 'li.msg.working').map((item) => item.textContent);
    expect(line()).toEqual(['Getting the model ready…']);
    await expect.poll(() => line(), { timeout: 3_000 }).toEqual(['Getting the model ready…1 s']);
    // Without the agent, a card knows only the tool's own name.
    const names = () => $$(again, 'li.card .card-name').map((name) => name.textContent);
    expect(names()).toEqual(['add_todo']);

    ready(await agentFor({ dbName, sessionId: first.sessionId, model: { engine: 'scripted', turns: [] }, tools }));
    await expect.poll(() => line()).toEqual([]);
    // The same conversation, each card as the agent's tools show it, and the page told of it once.
    expect(names()).toEqual(['Add to-do']);
    expect(replies(again)).toEqual(['Added tea.']);
    expect(cards(again)).toEqual(['add_todo done']);
    expect(shown).toEqual([4]);
  });

  test('a stored session shown early: an agent that never comes takes the line away; a session that is not stored shows nothing', async () => {
    const dbName = uniqueDb('chat-early-failed');
    const first = await agentFor({ dbName, model: { engine: 'scripted', turns: [{ text: 'Hello.' }] } });
    await first.send('hi');
    const chat = mount();
    let fail!: (error: Error) => void;
    chat.agent = new Promise<Agent>((_, reject) => (fail = reject));
    expect(await chat.showStoredSession(first.sessionId, { dbName })).toHaveLength(2);
    expect(replies(chat)).toEqual(['Hello.']);
    expect($$(chat, 'li.msg.working')).toHaveLength(1);
    fail(new Error('the model could not load'));
    await expect.poll(() => $$(chat, 'li.msg.working')).toHaveLength(0);
    expect(replies(chat)).toEqual(['Hello.']);

    const other = mount();
    expect(await other.showStoredSession('sess-not-stored', { dbName })).toEqual([]);
    expect(await other.showStoredSession(first.sessionId, { dbName: uniqueDb('no-such-db') })).toEqual([]);
    expect(other.isEmpty).toBe(true);
    expect($$(other, 'li.msg.working')).toHaveLength(0);
  });

  test('its words are the page’s to replace; its colours follow the theme attribute, the system’s scheme and the page’s custom properties', async () => {
    const chat = mount({ theme: 'light' });
    chat.strings = { send: 'Enviar', placeholder: 'Pregunta…', working: { starting: 'Preparando el modelo' } };
    expect($(chat, '#send').textContent).toBe('Enviar');
    expect($<HTMLTextAreaElement>(chat, '#prompt').placeholder).toBe('Pregunta…');
    // The groups keep what was not replaced.
    expect(chat.strings.working.readingRequest).toBe('Reading your request');
    expect(chat.strings.stop).toBe('Stop');
    const background = () => getComputedStyle(chat).backgroundColor;
    expect(background()).toBe('rgb(246, 247, 251)');
    chat.setAttribute('theme', 'dark');
    expect(background()).toBe('rgb(15, 18, 24)');
    chat.style.setProperty('--inpage-chat-bg', 'rgb(1, 2, 3)');
    expect(background()).toBe('rgb(1, 2, 3)');
  });

  test('at a phone’s width the composer and a card fit, with nothing wider than the chat', async () => {
    const { tools } = todoTools();
    const chat = mount();
    chat.style.width = '360px';
    chat.agent = await agentFor({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'add_todo', args: { text: 'a rather long to-do that wraps' } }] },
          { text: 'Done.' },
        ],
      },
      tools,
    });
    type(chat, 'add a rather long to-do that wraps over more than one line of the chat');
    await expect.poll(() => replies(chat)).toEqual(['Done.']);
    const width = chat.getBoundingClientRect().width;
    for (const element of $$(chat, '#ask, #send, li.card, li.msg'))
      expect(element.getBoundingClientRect().right, element.className || element.id).toBeLessThanOrEqual(
        chat.getBoundingClientRect().left + width + 0.5,
      );
    expect($(chat, '#scroller').scrollWidth).toBeLessThanOrEqual($(chat, '#scroller').clientWidth);
  });
});

describe('<inpage-agent-chat> in a page that changes', () => {
  test('moved within the page it keeps drawing the agent’s runs; taken out it stops, and put back it draws them again', async () => {
    const chat = mount();
    const agent = await agentFor({
      model: { engine: 'scripted', turns: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] },
    });
    chat.agent = agent;
    await expect.poll(() => chat.agent).toBe(agent);
    // Runs the page starts itself are drawn too.
    const holder = document.createElement('section');
    document.body.append(holder);
    holder.append(chat);
    await agent.send('first');
    await expect.poll(() => replies(chat)).toEqual(['One.']);
    chat.remove();
    await new Promise((resolve) => setTimeout(resolve));
    await agent.send('second');
    expect(replies(chat)).toEqual(['One.']);
    document.body.append(chat);
    await agent.send('third');
    await expect.poll(() => replies(chat)).toEqual(['One.', 'Three.']);
    holder.remove();
  });
});

describe('<inpage-agent-chat> from its attributes', () => {
  test('model-url and instructions make an agent (a GGUF on llama.cpp); form-tools gives it the page’s marked forms as tools, and forms added later', async () => {
    const form = document.createElement('form');
    form.setAttribute('toolname', 'subscribe');
    form.setAttribute('tooldescription', 'Subscribe to the newsletter.');
    form.innerHTML = '<input name="email" type="email" required>';
    document.body.append(form);
    const chat = mount({
      'model-url': '/models/tiny-qwen2_5.gguf',
      instructions: 'You help with this page.',
      'form-tools': '',
      'storage-key': `chat-${crypto.randomUUID()}`,
    });
    await expect.poll(() => chat.agent?.status, { timeout: 60_000 }).toBe('ready');
    agents.push(chat.agent!);
    expect(chat.agent!.info?.model.engine).toBe('wllama');
    expect(chat.agent!.declaredTools().map((tool) => [tool.name, tool.needsApproval])).toEqual([['subscribe', true]]);
    const second = document.createElement('form');
    second.setAttribute('toolname', 'search');
    second.setAttribute('tooldescription', 'Search.');
    second.innerHTML = '<input name="q">';
    document.body.append(second);
    await expect.poll(() => chat.agent!.declaredTools().map((tool) => tool.name)).toEqual(['subscribe', 'search']);
    // The download strip is gone once the model is loaded.
    expect($(chat, '.status').hidden || $(chat, '.status-text').textContent!.startsWith('Reading')).toBe(true);
  }, 90_000);
});
