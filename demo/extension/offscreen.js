// The extension's agent. Without model weights (as on a test machine) it plays a scripted
// turn, and says so; in a browser with WebGPU, set MODEL to a web-llm model id.
import { acceptContentScriptTools, createAgent } from './inpage-agent-extension.js';

const MODEL = null; // e.g. 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC'
const model = MODEL
  ? { engine: 'webllm', modelId: MODEL }
  : { engine: 'scripted', turns: Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? { toolCalls: [{ name: 'read_heading', args: {} }] } : { text: 'Scripted (no model): the heading says so above.' })) };

const agent = await createAgent({ model, instructions: 'You help with the page the user is on.', storage: 'memory' });
const refused = [];
acceptContentScriptTools(agent, {
  onRefused: (error) => refused.push(error.message),
  onTools: ({ added }) => {
    if (added?.length) console.info(`inpage-agent: tools from a tab: ${added.join(', ')}`);
  },
});

// The content script asks through its own port; the answer goes back the same way.
chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== 'example/ask' || port.sender?.id !== chrome.runtime.id) return;
  port.onMessage.addListener(async ({ text }) => {
    const { text: answer, events } = await agent.send(text);
    const results = events.flatMap((e) => (e.content?.role === 'tool' ? e.content.parts.map((p) => p.functionResponse?.response) : []));
    port.postMessage({ answer, results, refused });
  });
});
