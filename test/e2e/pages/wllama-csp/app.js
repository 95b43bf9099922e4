// A wllama agent from the built ESM bundle, on the GGUF named by ?model=; hands its answer or its error to the test.
import { createAgent } from '/vendor/lib/inpage-agent.js';

const url = `/models/${new URLSearchParams(location.search).get('model')}`;
try {
  const agent = await createAgent({
    // A fixed seed: the tiny random model's words at temperature 1 are the same on every load (unseeded, about one
    // load in forty drew an empty turn, which the run rightly ends as an error).
    model: { engine: 'wllama', url, contextWindow: 1024, temperature: 1, seed: 7, completion: { n_predict: 8 } },
    storage: 'memory',
  });
  const { events } = await agent.send('Hello');
  const last = events.at(-1);
  // A run that ended in an error says which, so that a failure of the test names it.
  window.__result = {
    label: agent.info.model.label,
    end: last.endReason,
    ...(last.endReason === 'error' && { error: last.errorMessage ?? JSON.stringify(last) }),
  };
} catch (error) {
  window.__result = { code: error.code, message: error.message };
}
