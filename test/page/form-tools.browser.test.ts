// Tools from the page's own forms, marked the WebMCP way: the schema a form's fields say, a call that fills
// and submits the form through its own validation and submit handlers only once a person allowed it, password
// and file fields never touched, and forms that come and go as the page changes. Real DOM, real worker.
import { afterEach, describe, expect, test } from 'vitest';
import { importFormTools, toMCPTool, type ApprovalRequest } from '../../src/index';
import { agentsClosedAfterEach, responses, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

afterEach(() => {
  for (const form of document.querySelectorAll('form')) form.remove();
});

function mount(html: string): HTMLFormElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  const form = holder.querySelector('form')!;
  document.body.append(form);
  return form;
}

const BOOKING = `
  <form toolname="book_table" tooldescription="Book a table at the restaurant.">
    <label for="guest">Your name</label><input id="guest" name="guest" required maxlength="40">
    <input name="email" type="email" toolparamdescription="Where the confirmation goes">
    <label>Guests <input name="guests" type="number" min="1" max="8" required></label>
    <input name="when" type="date" required aria-label="Day of the booking">
    <select name="room" toolparamtitle="Room"><option value="">Any</option><option value="garden">The garden</option><option value="hall">hall</option></select>
    <fieldset><legend>Seating</legend>
      <label><input type="radio" name="seating" value="inside"> Inside</label>
      <label><input type="radio" name="seating" value="terrace"> On the terrace</label>
    </fieldset>
    <label><input type="checkbox" name="vip"> VIP</label>
    <fieldset><legend>Extras</legend>
      <label><input type="checkbox" name="extras" value="cake"> Cake</label>
      <label><input type="checkbox" name="extras" value="flowers"> Flowers</label>
    </fieldset>
    <textarea name="note" minlength="3" placeholder="Anything we should know"></textarea>
    <input name="code" pattern="[A-Z]{3}" placeholder="Promo code">
    <input name="password" type="password" value="hunter2">
    <input name="id_card" type="file">
    <input name="token" type="hidden" value="t-1">
    <input name="old" disabled>
    <button>Book</button>
  </form>`;

describe('importFormTools: the schema a form says', () => {
  test('one parameter per named field, typed and limited as the field is; password, file, hidden and disabled fields are none', () => {
    mount(BOOKING);
    const [tool] = importFormTools(document);
    const definition = toMCPTool(tool!);
    expect(definition.name).toBe('book_table');
    expect(definition.title).toBe('Book table');
    expect(definition.description).toBe('Book a table at the restaurant.');
    expect(definition.inputSchema).toEqual({
      type: 'object',
      properties: {
        guest: { description: 'Your name', type: 'string', minLength: 1, maxLength: 40 },
        email: { description: 'Where the confirmation goes', type: 'string', format: 'email' },
        guests: { description: 'Guests', type: 'integer', minimum: 1, maximum: 8 },
        when: { description: 'Day of the booking', type: 'string', format: 'date', minLength: 1 },
        room: {
          title: 'Room',
          description: 'One of: "garden" (The garden), "hall".',
          type: 'string',
          enum: ['garden', 'hall'],
        },
        seating: {
          description: 'Seating. One of: "inside" (Inside), "terrace" (On the terrace).',
          type: 'string',
          enum: ['inside', 'terrace'],
        },
        vip: { description: 'VIP', type: 'boolean' },
        extras: {
          description: 'Extras. One of: "cake" (Cake), "flowers" (Flowers).',
          type: 'array',
          items: { type: 'string', enum: ['cake', 'flowers'] },
          uniqueItems: true,
        },
        note: { description: 'Anything we should know', type: 'string', minLength: 3 },
        code: { description: 'Promo code', type: 'string', pattern: '^(?:[A-Z]{3})$' },
      },
      required: ['guest', 'guests', 'when'],
      additionalProperties: false,
    });
    expect(Object.keys(definition.inputSchema.properties as object)).not.toContain('password');
  });

  test('a form without both toolname and tooldescription is no tool; a name ours does not take is made one', () => {
    mount('<form toolname="only_a_name"><input name="a"></form>');
    mount('<form toolname="Search flights" tooldescription="Find flights."><input name="to"></form>');
    expect(importFormTools(document).map((tool) => [tool.name, tool.displayName])).toEqual([
      ['Search_flights', 'Search flights'],
    ]);
  });
});

describe('importFormTools: a call fills and submits the form', () => {
  function bookingPage() {
    const form = mount(BOOKING);
    const submitted: { agentInvoked: boolean; values: Record<string, FormDataEntryValue[]> }[] = [];
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      submitted.push({
        agentInvoked: (event as SubmitEvent & { agentInvoked?: boolean }).agentInvoked === true,
        values: Object.fromEntries([...new Set(data.keys())].map((key) => [key, data.getAll(key)])),
      });
    });
    return { form, submitted };
  }

  const booking = { guest: 'Ana', guests: 2, when: '2026-12-24', seating: 'terrace', vip: true, extras: ['cake'] };

  test('after the person allows it: the fields are filled, the page’s submit handler runs with agentInvoked, the password stays as it was', async () => {
    const { form, submitted } = bookingPage();
    const asked: ApprovalRequest[] = [];
    const agent = await start({
      dbName: uniqueDb('form-call'),
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'book_table', args: booking }] }, { text: 'Booked.' }],
      },
      tools: importFormTools(document),
      onApproval: (call) => {
        asked.push(call);
        // Nothing is filled before the person says yes.
        expect((form.elements.namedItem('guest') as HTMLInputElement).value).toBe('');
        return true;
      },
    });
    const result = await agent.send(
      'Book a table for Ana and one more on Christmas Eve, on the terrace, VIP, with a cake',
    );
    expect(asked.map((call) => call.name)).toEqual(['book_table']);
    expect(submitted).toEqual([
      {
        agentInvoked: true,
        values: {
          guest: ['Ana'],
          email: [''],
          guests: ['2'],
          when: ['2026-12-24'],
          room: [''],
          seating: ['terrace'],
          vip: ['on'],
          extras: ['cake'],
          note: [''],
          code: [''],
          password: ['hunter2'],
          id_card: [expect.any(File)],
          token: ['t-1'],
        },
      },
    ]);
    expect(result.calls.map((call) => [call.name, call.outcome])).toEqual([['book_table', 'ran']]);
    expect(result.calls[0]!.result).toEqual({ submitted: true, form: 'book_table', values: booking });
  });

  test('when the person does not allow it, nothing is filled and nothing is sent', async () => {
    const { form, submitted } = bookingPage();
    const agent = await start({
      dbName: uniqueDb('form-denied'),
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'book_table', args: booking }] }, { text: 'OK.' }] },
      tools: importFormTools(document),
      onApproval: () => false,
    });
    const result = await agent.send('Book it');
    expect(submitted).toEqual([]);
    expect((form.elements.namedItem('guest') as HTMLInputElement).value).toBe('');
    expect(result.calls.map((call) => call.outcome)).toEqual(['not-approved']);
  });

  test('a password is never a parameter: a call that names one is refused before any page code runs', async () => {
    const { form, submitted } = bookingPage();
    let asked = 0;
    const agent = await start({
      dbName: uniqueDb('form-password'),
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'book_table', args: { ...booking, password: 'x' } }] }, { text: 'OK.' }],
      },
      tools: importFormTools(document),
      onApproval: () => (asked++, true),
    });
    const result = await agent.send('Book it with password x');
    expect(asked).toBe(0);
    expect(submitted).toEqual([]);
    expect((form.elements.namedItem('password') as HTMLInputElement).value).toBe('hunter2');
    expect(result.calls.map((call) => [call.outcome, call.refusedBy])).toEqual([['refused', 'validation']]);
  });

  test('the page’s own validation runs: a value its handler refuses is not sent, and the model reads why', async () => {
    const { form, submitted } = bookingPage();
    const guest = form.elements.namedItem('guest') as HTMLInputElement;
    guest.addEventListener('input', () => guest.setCustomValidity(guest.value === 'Bob' ? 'We are full for Bob.' : ''));
    const agent = await start({
      dbName: uniqueDb('form-invalid'),
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'book_table', args: { ...booking, guest: 'Bob' } }] }, { text: 'Sorry.' }],
      },
      tools: importFormTools(document),
      onApproval: () => true,
    });
    const result = await agent.send('Book for Bob');
    expect(submitted).toEqual([]);
    expect(result.calls[0]!.outcome).toBe('failed');
    expect(responses(result.events)[0]!.error).toContain('guest (We are full for Bob.)');
  });

  test('toolautosubmit: the form says the agent may send it without asking; respondWith gives the model the page’s answer', async () => {
    const form = mount(
      `<form toolname="search" tooldescription="Search the catalogue." toolautosubmit><input name="q" required></form>`,
    );
    form.addEventListener('submit', (event) => {
      const submit = event as SubmitEvent & {
        agentInvoked?: boolean;
        respondWith?: (answer: Promise<unknown>) => void;
      };
      if (!submit.agentInvoked) return;
      event.preventDefault();
      submit.respondWith!(
        Promise.resolve({ results: [`${(form.elements.namedItem('q') as HTMLInputElement).value} lamp`] }),
      );
    });
    let asked = 0;
    const agent = await start({
      dbName: uniqueDb('form-autosubmit'),
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'search', args: { q: 'desk' } }] }, { text: 'Found.' }],
      },
      tools: importFormTools(document),
      onApproval: () => (asked++, true),
    });
    const result = await agent.send('find a desk lamp');
    expect(asked).toBe(0);
    expect(result.calls[0]!.result).toEqual({ results: ['desk lamp'] });
  });
});

describe('importFormTools with an agent: forms that come and go', () => {
  test('a form added later becomes a tool; one removed takes its tool away; one whose fields change gets the new schema', async () => {
    const agent = await start({
      dbName: uniqueDb('form-live'),
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'subscribe', args: { email: 'ana@example.com' } }] },
          { text: 'Subscribed.' },
          { toolCalls: [{ name: 'subscribe', args: { email: 'ana@example.com', weekly: true } }] },
          { text: 'Again.' },
          { toolCalls: [{ name: 'subscribe', args: { email: 'ana@example.com' } }] },
          { text: 'Gone.' },
        ],
      },
      onApproval: () => true,
    });
    const controller = new AbortController();
    expect(importFormTools(document, { agent, signal: controller.signal })).toEqual([]);
    const sent: string[] = [];
    const form = mount(
      `<form toolname="subscribe" tooldescription="Subscribe to the newsletter." toolautosubmit><input name="email" type="email" required></form>`,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      sent.push(new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString());
    });
    await expect.poll(() => agent.declaredTools().map((tool) => tool.name)).toEqual(['subscribe']);
    expect((await agent.send('subscribe me')).calls.map((call) => call.outcome)).toEqual(['ran']);
    expect(sent).toEqual(['email=ana%40example.com']);

    // A field added: the tool's schema has it now.
    form.insertAdjacentHTML('beforeend', '<input type="checkbox" name="weekly">');
    await expect
      .poll(() => Object.keys(agent.declaredTools()[0]?.parameters.properties ?? {}))
      .toEqual(['email', 'weekly']);
    expect((await agent.send('weekly please')).calls.map((call) => call.outcome)).toEqual(['ran']);
    expect(sent.at(-1)).toBe('email=ana%40example.com&weekly=on');

    form.remove();
    await expect.poll(() => agent.declaredTools()).toEqual([]);
    const gone = await agent.send('subscribe me again');
    expect(gone.calls.map((call) => [call.outcome, call.error?.code])).toEqual([['refused', 'unknown-tool']]);
    expect(sent).toHaveLength(2);
    controller.abort();
  });
});
