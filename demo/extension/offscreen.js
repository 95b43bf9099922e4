// The extension's agent, in an offscreen document. With ?model=<web-llm model id> it runs that
// model (WebGPU needed); without, a small engine module that only reads headings, and says so.
import { acceptContentScriptTools, createAgent } from './inpage-agent-extension.js';

const modelId = new URLSearchParams(location.search).get('model');
const model = modelId ? { engine: 'webllm', modelId } : { engine: 'module', url: 'example-engine.js' };
console.info(
  modelId
    ? `inpage-agent: running ${modelId}`
    : 'inpage-agent: example engine (no model weights); open offscreen.html?model=<id> for a real model',
);

const agent = await createAgent({ model, instructions: 'You help with the page the user is on.', storage: 'memory' });
const refused = [];
acceptContentScriptTools(agent, {
  onRefused: (error) => refused.push(error.message),
  onTools: ({ added, removed, tabId }) => console.info(`inpage-agent: tab ${tabId}`, { added, removed }),
});

// The content script asks through its own port; the answer goes back the same way.
chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== 'example/ask' || port.sender?.id !== chrome.runtime.id) return;
  port.onMessage.addListener(async ({ text }) => {
    try {
      const { text: answer, events } = await agent.send(text);
      const results = events.flatMap((e) =>
        e.content?.role === 'tool'
          ? e.content.parts.map((p) => p.functionResponse?.response ?? p.functionResponse?.error)
          : [],
      );
      port.postMessage({ answer, results, refused, model: agent.info?.model.label ?? modelId });
    } catch (error) {
      port.postMessage({ error: `${error.code ?? ''} ${error.message}`, refused });
    }
  });
});
