// The example's engine when no model runs: an engine module (model: { engine: 'module', url })
// that reads the page's heading with the content script's tool and says what it found. It is
// labelled as what it is; offscreen.html?model=<web-llm model id> runs a real model instead.
export default function createExampleEngine() {
  return {
    info: { label: 'Example engine (no model)', contextWindow: 8192 },
    async *generate(request) {
      const last = request.messages.at(-1);
      if (last?.role === 'tool') {
        const said = last.content.startsWith('Error:')
          ? `I could not read the heading: ${last.content.slice(7)}`
          : `This page's heading is “${last.content}”.`;
        yield { type: 'text', text: `${said} (Example engine, no model: I can only read headings.)` };
      } else if (request.tools.some((tool) => tool.name === 'read_heading')) {
        yield { type: 'tool-call', call: { name: 'read_heading', args: {} } };
      } else {
        yield {
          type: 'text',
          text: 'No page offers its tools yet: open a web page in a tab (the example’s content script adds read_heading there), then ask again.',
        };
      }
      yield { type: 'finish', reason: last?.role === 'tool' ? 'stop' : 'tool-calls' };
    },
  };
}
