// The extension's agent, in an offscreen document. With ?model=<web-llm model id> it runs that
// model (WebGPU needed); without, it plays scripted turns and says so: no model weights here.
import { acceptContentScriptTools, createAgent } from './inpage-agent-extension.js';

const modelId = new URLSearchParams(location.search).get('model');
const model = modelId
  ? { engine: 'webllm', modelId }
  : {
      engine: 'scripted',
      turns: Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? { toolCalls: [{ name: 'read_heading', args: {} }] }
          : { text: 'Scripted (no model): the heading says so above.' },
      ),
    };
console.info(
  modelId
    ? `inpage-agent: running ${modelId}`
    : 'inpage-agent: scripted engine (no model weights); open offscreen.html?model=<id> for a real model',
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
      port.postMessage({ answer, results, refused, model: modelId ?? 'scripted' });
    } catch (error) {
      port.postMessage({ error: `${error.code ?? ''} ${error.message}`, refused });
    }
  });
});
