// In an opaque origin: createAgent must settle (with an agent, or a clear error), never hang.
const started = performance.now();
InpageAgent.createAgent({ model: { engine: 'scripted', turns: [{ text: 'hi' }] }, storage: 'memory' }).then(
  (agent) => parent.postMessage({ outcome: 'started', ms: performance.now() - started, info: agent.info }, '*'),
  (error) =>
    parent.postMessage(
      {
        outcome: 'refused',
        ms: performance.now() - started,
        code: error.code,
        message: error.message,
        name: error.name,
      },
      '*',
    ),
);
