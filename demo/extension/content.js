// Runs in every matching page: defines a tool on the page and offers it to the extension's agent.
const { exposePageTools, defineTool, z } = window.InpageAgentContent;

const readHeading = defineTool({
  name: 'read_heading',
  description: "Reads the visited page's main heading and marks it as read.",
  annotations: { readOnly: false },
  parameters: z.object({}),
  execute: () => {
    const heading = document.querySelector('h1');
    heading?.setAttribute('data-read-by-agent', 'true');
    return heading?.textContent ?? '(no heading)';
  },
});

// The status shows on the page (connecting, connected, gave-up), so a reload of the host is visible.
const connection = exposePageTools([readHeading], {
  onStatus: (status) => (document.documentElement.dataset.agentTools = status),
});

// The page (or a test) asks the model with a DOM event; the answer comes back on the page.
window.addEventListener('inpage-agent-example:ask', async (event) => {
  await connection.ready;
  const port = chrome.runtime.connect({ name: 'example/ask' });
  port.onMessage.addListener((reply) => {
    document.documentElement.dataset.agentReply = JSON.stringify(reply);
    port.disconnect();
  });
  port.postMessage({ text: event.detail });
});
