// A wllama agent from the built ESM bundle, on the GGUF named by ?model=; hands its answer or its error to the test.
import { createAgent } from '/vendor/lib/inpage-agent.js';

const url = `/models/${new URLSearchParams(location.search).get('model')}`;
try {
  const agent = await createAgent({
    model: { engine: 'wllama', url, contextWindow: 1024, temperature: 1, completion: { n_predict: 8 } },
    storage: 'memory',
  });
  const { events } = await agent.send('Hello');
  window.__result = { label: agent.info.model.label, end: events.at(-1).endReason };
} catch (error) {
  window.__result = { code: error.code, message: error.message };
}
