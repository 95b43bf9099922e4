// A service worker cannot start the agent's Web Worker, so the agent lives in an offscreen document.
// In a browser with WebGPU, set MODEL to a web-llm model id (e.g. 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
// left empty, the offscreen page plays scripted turns (model weights cannot be downloaded everywhere).
const MODEL = '';

async function ensureOffscreen() {
  if (await chrome.offscreen.hasDocument()) return;
  const url = MODEL ? `offscreen.html?model=${encodeURIComponent(MODEL)}` : 'offscreen.html';
  await chrome.offscreen.createDocument({
    url,
    reasons: ['WORKERS'],
    justification: 'Runs the local model in a Web Worker.',
  });
}
chrome.runtime.onInstalled.addListener(ensureOffscreen);
chrome.runtime.onStartup.addListener(ensureOffscreen);
ensureOffscreen();

// The toolbar button opens the side panel, where a chat box asks the agent about the current tab.
chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
