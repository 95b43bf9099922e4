// One sample of the boot benchmark per page load (scripts/boot-bench.mjs opens
// each in a fresh browser context, so nothing is cached): ?case=agent times
// createAgent until ready for a scripted agent, from the built files in lib/,
// then runs one scripted turn (&storage=memory: without IndexedDB); ?case=bare
// times the peer, a bare comlink worker's start and one round trip.
const params = new URLSearchParams(location.search);
const which = params.get('case');
let ms;
if (which === 'agent') {
  const { createAgent, defineTool, z } = await import(new URL('lib/inpage-agent.js', location.href).href);
  const addTodo = defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list on this page.',
    parameters: z.object({ text: z.string().min(1) }),
    execute: ({ text }) => {
      const item = document.createElement('li');
      item.textContent = text;
      document.querySelector('#todos').append(item);
      return { id: text };
    },
  });
  const start = performance.now();
  const agent = await createAgent({
    model: {
      engine: 'scripted',
      turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] }, { text: 'Added milk.' }],
    },
    tools: [addTodo],
    storage: params.get('storage') ?? 'indexeddb',
    dbName: `boot-${crypto.randomUUID()}`,
  });
  ms = performance.now() - start;
  const { text } = await agent.send('Remember to buy milk');
  if (text !== 'Added milk.') throw new Error(`the scripted run answered ${text}`);
  await agent.close();
} else {
  const { bareRoundTrip } = await import('/peer/bare-page.js');
  ms = await bareRoundTrip('/peer/bare-worker.js');
}
window.__boot = { ms };
