// The side panel: a chat box to try the example on any page. It asks the agent in the offscreen
// document through the same port as the content script does, and shows the answer, the tool
// results and which engine answered. Everything from the agent goes in as text.
const log = document.querySelector('#log');
const prompt = document.querySelector('#prompt');
const send = document.querySelector('#send');

function add(kind, text) {
  const item = document.createElement('li');
  item.className = kind;
  item.textContent = text;
  log.append(item);
  item.scrollIntoView({ block: 'end' });
  return item;
}

function ask(text) {
  return new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'example/ask' });
    port.onMessage.addListener((reply) => {
      resolve(reply);
      port.disconnect();
    });
    port.onDisconnect.addListener(() =>
      resolve({ error: 'The agent is not running. Reload the extension in chrome://extensions.' }),
    );
    port.postMessage({ text });
  });
}

document.querySelector('#ask').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = prompt.value.trim();
  if (!text) return;
  prompt.value = '';
  add('user', text);
  send.disabled = true;
  const waiting = add('agent pending', 'Thinking…');
  const reply = await ask(text);
  waiting.remove();
  for (const result of reply.results ?? [])
    add('tool', `Tool result: ${typeof result === 'string' ? result : JSON.stringify(result)}`);
  if (reply.error) add('error', `Something went wrong: ${reply.error}`);
  else add('agent', reply.answer || '(no answer)');
  if (reply.model) document.querySelector('#model').textContent = `Answered by: ${reply.model}`;
  send.disabled = false;
  prompt.focus();
});

prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    document.querySelector('#ask').requestSubmit();
  }
});
