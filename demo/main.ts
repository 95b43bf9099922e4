// The demo: a chat (<inpage-agent-chat>, the package's own) with an agent that acts on the sample page beside it. A local model runs on
// WebGPU, or on the CPU (a GGUF through llama.cpp); until one is loaded, an engine module of rules
// stands in (demo mode, labelled as such), through the same worker, tools, approval, sessions and
// toolkit. Insight (timeline, toolkit graph, tool stats, sessions, model) is in a drawer. The session
// id and the model chosen are kept in localStorage, so a reload loads the model again (from the
// browser's cache) and picks the conversation up where it was, a run it cut off included.
import {
  AgentError,
  createAgent,
  type Agent,
  type AgentEvent,
  type ApprovalRequest,
  type ModelOptions,
  type PromptRead,
  type WarmupResult,
} from '../src/index';
import '../src/chat/index';
import type { InpageAgentChat } from '../src/chat/index';
import { displayNameOf, PAGE_INSTRUCTIONS, pageSummary, pageTools, replayCall } from './app/page-tools';
import { nextSuggestions, suggestions } from './suggestions';
import { closeDrawer, currentView, isDrawerOpen, openDrawer, startDrawer, type View } from './ui/drawer';
import { DEMO_ERRORS, friendlyError } from './ui/friendly-error';
import { showGraph, startZoom } from './ui/graph-view';
import { fillPicker, isBaseModel, modelFor, probeDevice, progressReporter } from './ui/model-picker';
import { drawSessions, startSessions } from './ui/sessions-view';
import { drawTimeline, formatMs } from './ui/timeline';

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const SESSION_KEY = 'inpage-agent-demo:session';
/** The model picker's value of the model last loaded (e.g. `gguf:<id>`); absent: demo mode. */
const MODEL_KEY = 'inpage-agent-demo:model';
/** Set for the one reload that makes the page cross-origin isolated (threads) once the service worker controls it. */
const ISOLATION_RELOAD_KEY = 'inpage-agent-demo:isolation-reload';
const params = new URLSearchParams(location.search);

/** The stand-in engine module: served from source by `npm start`, built to a fixed name by `npm run build`. */
// import.meta.hot, not import.meta.env.DEV: a build made under NODE_ENV=test (the e2e tests) is a build too.
const STAND_IN_URL = import.meta.hot ? 'demo/engine/stand-in.ts' : 'assets/stand-in-engine.js';
const standIn = (): ModelOptions => ({
  engine: 'module',
  url: STAND_IN_URL,
  // ?tokenDelay=ms changes how fast demo mode streams (default 30 ms a word); ?readDelay=ms how long it takes
  // before its first word of each step, as a model on a CPU reads its prompt (default 0).
  options: { tokenDelayMs: Number(params.get('tokenDelay') ?? 30), readDelayMs: Number(params.get('readDelay') ?? 0) },
});

/** The conversation: the package's chat element, with the demo's suggestions in its slots. */
const chat = $<InpageAgentChat>('#chat');
let agent: Agent | undefined;
/** The agent being started (or a session being opened); the chat's messages wait for it too. */
let starting: Promise<void> = Promise.resolve();
/** The session's stored events, for the timeline. */
let events: AgentEvent[] = [];
let currentModel: ModelOptions = standIn();
/** What the model read ahead last (the instructions and the tools), shown in the model panel. */
let readAhead: WarmupResult | undefined;
/** Whether the model is reading the instructions and tools ahead (after its load, and for each new session). */
let readingAhead = false;
/** How far the model has read them ahead: the model panel shows it. */
let readAheadProgress: PromptRead | undefined;
let timelineTool: string | undefined;
/** Whether the visitor last used the keyboard: then approval also opens the dialog, which takes focus. */
let keyboardUser = false;
addEventListener('keydown', (event) => (keyboardUser = event.key === 'Tab' || event.key === 'Enter' || keyboardUser));
addEventListener('pointerdown', () => (keyboardUser = false));

// ── approval: in the call's card (the chat's); for keyboard users also in an accessible dialog ──
function approve(call: ApprovalRequest): Promise<boolean> {
  const dialog = $<HTMLDialogElement>('#approval');
  const inline = chat.approve(call, { focus: !keyboardUser });
  if (!keyboardUser) return inline;
  $('#approval-text').textContent =
    `The agent wants to “${displayNameOf(call.name)}” (${call.name}). This cannot be undone.`;
  $('#approval-args').textContent = JSON.stringify(call.args, null, 2);
  dialog.returnValue = '';
  dialog.showModal();
  $<HTMLButtonElement>('#approval-reject').focus();
  const fromDialog = new Promise<boolean>((resolve) =>
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'approve'), { once: true }),
  );
  return Promise.race([inline, fromDialog]).then((granted) => {
    if (dialog.open) dialog.close(granted ? 'approve' : 'reject');
    return granted;
  });
}

// ── the agent ──
/** Starts an agent on `model`; the chat takes it once it is ready (a message typed meanwhile waits for it). */
function start(model: ModelOptions, signal?: AbortSignal): Promise<void> {
  const made = startAgent(model, signal);
  chat.agent = made;
  starting = made.then(() => undefined);
  return starting;
}

/** A base model continues the pattern it is shown: requests, each answered with one call in Gemma's syntax. */
const BASE_MODEL_INSTRUCTIONS = [
  'You help with this page. Answer each request with one call of a tool, in a ```tool_code block.',
  ['Add eggs to my list', 'add_todo(text="eggs")'],
  ['I bought the bread', 'complete_todo(text="bread")'],
  ['Note: the meeting is at ten', 'add_note(title="Meeting", body="at ten")'],
  ['Sort the products by price', 'sort_table(column="price")'],
]
  .map((entry) => (typeof entry === 'string' ? entry : `Request: ${entry[0]}\n\`\`\`tool_code\n${entry[1]}\n\`\`\``))
  .join('\n\n');

async function startAgent(model: ModelOptions, signal?: AbortSignal): Promise<Agent> {
  // No message may reach the agent being replaced: it is closing (its run() would reject with 'closed').
  const previous = agent;
  agent = undefined;
  chat.stop();
  await previous?.close();
  setStatus('starting');
  const demoMode = model.engine === 'module';
  $('#model-label').textContent = demoMode
    ? 'Demo mode'
    : `Loading ${model.engine === 'webllm' ? model.modelId : model.engine === 'wllama' ? (model.modelId ?? '') : ''}…`;
  const next = await createAgent({
    model,
    instructions: isBaseModel(model) ? BASE_MODEL_INSTRUCTIONS : PAGE_INSTRUCTIONS,
    tools: pageTools,
    storage: 'auto',
    sessionId: localStorage.getItem(SESSION_KEY) ?? undefined,
    toolkit: { startActions: ['organize'], hops: 3 },
    onApproval: approve,
    // A base model answers each request with one call and no reply (see demo/models.ts).
    ...(isBaseModel(model) && { toolChoice: 'required' as const, maxSteps: 1 }),
    // Once the model has loaded, and for each new session, the instructions and the tools are read ahead while
    // the visitor types: the first request reads only itself (a CPU model reads a few tokens a second).
    warmup: true,
    signal,
  });
  agent = next;
  readAhead = undefined;
  readingAhead = true;
  readAheadProgress = undefined;
  next.addEventListener('status', (event) => setStatus((event as CustomEvent<{ status: string }>).detail.status));
  next.addEventListener('warmup-progress', (event) => {
    readAheadProgress = (event as CustomEvent<PromptRead>).detail;
    showReadingAhead(readAheadProgress);
  });
  next.addEventListener('warmup', (event) => {
    readingAhead = false;
    showReadAhead((event as CustomEvent<WarmupResult>).detail);
  });
  // What the timeline shows: the session's events as they are stored.
  next.addEventListener('event', (event) => {
    const stored = (event as CustomEvent<AgentEvent>).detail;
    if (!stored.partial && stored.sessionId === next.sessionId) events.push(stored);
  });
  setStatus(next.status);
  localStorage.setItem(SESSION_KEY, next.sessionId);
  const more = document.createElement('span');
  more.className = 'wide-only';
  more.textContent = ' · no AI model';
  if (demoMode) $('#model-label').replaceChildren('Demo mode', more);
  else $('#model-label').textContent = next.info?.model.label ?? 'Local model';
  $('#model-button').setAttribute('aria-label', `Model: ${next.info?.model.label ?? ''}. Change it`);
  $('#mode-banner').hidden = !demoMode;
  await ensureToolkit(next);
  return next;
}

function setStatus(status: string): void {
  $('#agent-status').textContent = status;
  $('#status-dot').dataset.status = status;
}

/** The page's toolkit graph: which tools belong to which step of the work. Built once per database. */
async function ensureToolkit(target: Agent): Promise<void> {
  const graph = await target.toolkit.toJSON();
  if (graph.vertices.length) return;
  // Organizing the to-dos comes first; writing, analysing the products and contacting follow from it,
  // and each leads back to it, so every tool stays within reach whichever step the visitor is at.
  await target.toolkit.addAction({ id: 'organize', name: 'Organize', description: 'to-dos' });
  for (const [id, name, description, score] of [
    ['write', 'Write', 'notes', 0.8],
    ['analyze', 'Analyze', 'the products table', 0.7],
    ['contact', 'Contact', 'the form', 0.6],
  ] as const) {
    await target.toolkit.addAction(
      { id, name, description },
      [{ action: 'organize', score: 0.6 }],
      [{ action: 'organize', score }],
    );
  }
  for (const [tool, action] of [
    ['add_todo', 'organize'],
    ['complete_todo', 'organize'],
    ['list_todos', 'organize'],
    ['clear_todos', 'organize'],
    ['add_note', 'write'],
    ['sort_table', 'analyze'],
    ['fill_form', 'contact'],
  ] as const) {
    await target.toolkit.addTool(tool, [{ action, score: 0.9 }]);
  }
}

/**
 * Opens another session (a new one without an id) in the agent that runs: the model stays loaded, and what it
 * read ahead stays read (a new session reads only what differs). The chat takes the agent again once the
 * session is open, and shows it; a message sent meanwhile waits for it.
 */
function switchSession(sessionId: string | undefined): Promise<void> {
  const before = starting;
  const opened = (async () => {
    await before.catch(() => undefined);
    const target = agent;
    if (!target) {
      if (sessionId) localStorage.setItem(SESSION_KEY, sessionId);
      else localStorage.removeItem(SESSION_KEY);
      return startAgent(currentModel);
    }
    chat.stop();
    readingAhead = true;
    readAheadProgress = undefined;
    localStorage.setItem(SESSION_KEY, await target.openSession(sessionId));
    return target;
  })();
  chat.agent = opened;
  starting = opened.then(() => undefined);
  return starting;
}

/**
 * The chat shows a session (the agent's first, or another): the page is put back as its calls left it, before
 * a run a reload cut off goes on.
 */
chat.onSession = async (shown) => {
  resetPage();
  events = [...shown];
  const succeeded = new Set(
    events.flatMap((event) =>
      (event.content?.parts ?? []).flatMap((part) =>
        'functionResponse' in part && !part.functionResponse.error ? [part.functionResponse.id] : [],
      ),
    ),
  );
  for (const event of events)
    for (const part of event.content?.parts ?? [])
      if ('functionCall' in part && succeeded.has(part.functionCall.id))
        await replayCall(part.functionCall.name, part.functionCall.args);
  showSuggestions();
  await refreshInsight();
};

const initialProducts = $('#products tbody').innerHTML;
function resetPage(): void {
  $('#todos').replaceChildren();
  $('#notes').replaceChildren();
  $('#products tbody').innerHTML = initialProducts;
  $<HTMLFormElement>('#contact').reset();
  updatePageSummary();
}

function updatePageSummary(): void {
  $('#page-summary').textContent = pageSummary();
}

/** After each run the chat drove: new suggestions, and Insight brought up to date. */
function done(): void {
  showSuggestions();
  void refreshInsight();
}

function chip(text: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'suggestion';
  button.textContent = text;
  button.addEventListener('click', () => void chat.send(text));
  return button;
}

function showSuggestions(): void {
  const empty = chat.isEmpty;
  $('#empty').hidden = !empty;
  $('#empty-suggestions').replaceChildren(...suggestions.map(chip));
  const asked = events.flatMap((event) =>
    event.content?.role === 'user' ? event.content.parts.map((part) => ('text' in part ? part.text : '')) : [],
  );
  const next = empty || chat.running ? [] : nextSuggestions(asked);
  const box = $('#next-suggestions');
  box.hidden = next.length === 0;
  const label = document.createElement('span');
  label.className = 'muted';
  label.textContent = 'Try next:';
  box.replaceChildren(label, ...next.map(chip));
}

// ── insight: timeline, toolkit graph, tool stats, sessions, model ──
async function refreshInsight(view: View = currentView()): Promise<void> {
  if (!agent || !isDrawerOpen()) return;
  if (view === 'timeline') {
    $('#timeline-filter').hidden = !timelineTool;
    if (timelineTool) {
      $('#timeline-filter').textContent = `Showing the calls of ${timelineTool}. `;
      const all = document.createElement('button');
      all.type = 'button';
      all.className = 'link';
      all.textContent = 'Show every event';
      all.addEventListener('click', () => {
        timelineTool = undefined;
        void refreshInsight('timeline');
      });
      $('#timeline-filter').append(all);
    }
    drawTimeline($('#timeline'), events, { reveal: (eventId) => chat.reveal(eventId) }, timelineTool);
  }
  if (view === 'graph') {
    const svg = await agent.toolkit.render({ highlight: ['organize'], hops: 1, title: 'Toolkit graph' });
    showGraph($('#graph'), svg, (tool) => {
      timelineTool = tool;
      openDrawer('timeline');
    });
  }
  if (view === 'stats') {
    const stats = await agent.stats();
    const rows = Object.entries(stats.tools).map(([name, tool]) => {
      const row = document.createElement('tr');
      for (const value of [displayNameOf(name), tool.calls, tool.errors, formatMs(tool.p50Ms)]) {
        const cell = document.createElement('td');
        cell.textContent = String(value);
        row.append(cell);
      }
      return row;
    });
    $('#stats tbody').replaceChildren(...rows);
    $('#stats-empty').hidden = rows.length > 0;
  }
  if (view === 'sessions') await drawSessions(sessionHooks);
}

const sessionHooks = {
  agent: () => agent,
  open: async (sessionId: string | undefined) => {
    await switchSession(sessionId);
    await refreshInsight();
  },
};

// ── model: the picker, loading with progress, falling back to demo mode ──
let loading: AbortController | undefined;

async function loadModel(choice: string): Promise<void> {
  if (reloadForThreads(choice)) return;
  loading = new AbortController();
  $('#progress').hidden = false;
  $('#cancel-load').hidden = false;
  $<HTMLButtonElement>('#load-model').disabled = true;
  try {
    // The download shows in the model panel and, for a visitor back in the chat, in the chat's strip.
    const report = progressReporter();
    currentModel = modelFor(choice, (progress) => {
      report(progress);
      chat.showProgress(progress);
    });
    await start(currentModel, loading.signal);
    // Loaded: a reload loads it again, from the browser's cache.
    localStorage.setItem(MODEL_KEY, choice);
    showModelPanel();
  } catch (error) {
    localStorage.removeItem(MODEL_KEY);
    const { text, details } = friendlyError(error as AgentError);
    const panel = $('#gpu-panel');
    panel.hidden = false;
    panel.classList.toggle('error', (error as AgentError).code !== 'aborted');
    panel.textContent = `${(error as AgentError).code === 'aborted' ? 'Download cancelled.' : text} Demo mode is on meanwhile.`;
    const more = document.createElement('details');
    more.innerHTML = '<summary>Details</summary><pre></pre>';
    more.querySelector('pre')!.textContent = details;
    panel.append(more);
    currentModel = standIn();
    await start(currentModel);
  } finally {
    loading = undefined;
    // Loaded, failed or cancelled: the chat's strip goes with the panel's bar.
    chat.showProgress({ progress: 1, text: '' });
    $('#progress').hidden = true;
    $('#cancel-load').hidden = true;
    $<HTMLButtonElement>('#load-model').disabled = false;
  }
}

/** The model panel once a model runs: what it is, and what it runs with less of than it could (one thread, and why). */
function showModelPanel(): void {
  const model = agent?.info?.model;
  const panel = $('#gpu-panel');
  panel.hidden = false;
  panel.classList.remove('error');
  panel.textContent = `${model?.label ?? 'The model'} is running on this device.`;
  if (model?.notice) {
    const notice = document.createElement('p');
    notice.className = 'muted';
    notice.textContent = model.notice;
    panel.append(notice);
  }
  if (readingAhead && readAheadProgress) showReadingAhead(readAheadProgress);
  else renderReadAhead();
}

/** The model panel says what the model read ahead, once it has: a visitor's first request then reads only itself. */
function showReadAhead(result: WarmupResult): void {
  // A read-ahead that stopped (another session opened) or could not run leaves what an earlier one read.
  if (result.status === 'read') readAhead = result;
  renderReadAhead();
}

/** The panel's line on the last read-ahead, or none (the line that said it was reading goes). */
function renderReadAhead(): void {
  if (!readAhead) {
    $('#gpu-panel').querySelector('#read-ahead')?.remove();
    return;
  }
  const line = readAheadLine();
  if (line)
    line.textContent = `Read ahead: the instructions, the page's tools and the conversation so far, ${readAhead.promptTokens} tokens (${readAhead.prefilledTokens} read now). Your next message is read on its own.`;
}

/** While it reads them (a minute on a CPU), the model panel says how far it got, as the working line does. */
function showReadingAhead(progress: PromptRead): void {
  const line = readAheadLine();
  if (!line || progress.read >= progress.of) return;
  const share = Math.floor((progress.read / Math.max(1, progress.of)) * 100);
  line.textContent = `Reading ahead the instructions, the page's tools and the conversation so far: ${share}% of about ${progress.of} tokens. A message sent meanwhile waits for it.`;
}

/** The model panel's line on the read-ahead, when the panel shows and the model is one that reads ahead. */
function readAheadLine(): HTMLElement | undefined {
  const panel = $('#gpu-panel');
  if (panel.hidden || currentModel.engine === 'module') return undefined;
  let line = panel.querySelector<HTMLElement>('#read-ahead');
  if (!line) {
    line = document.createElement('p');
    line.id = 'read-ahead';
    line.className = 'muted';
    panel.append(line);
  }
  return line;
}

/**
 * A CPU model uses more than one thread only in a cross-origin isolated page. On a static host the service
 * worker adds the headers that isolate it (public/sw.js), from the first load it controls: the first visit
 * reloads once, before the model loads, and the model chosen loads after the reload. Once only, so a browser
 * that will not isolate the page still gets its model, on one thread, with the reason in the model panel.
 */
function reloadForThreads(choice: string): boolean {
  if (!choice.startsWith('gguf:') || globalThis.crossOriginIsolated || chat.running) return false;
  if (!navigator.serviceWorker?.controller || sessionStorage.getItem(ISOLATION_RELOAD_KEY)) return false;
  sessionStorage.setItem(ISOLATION_RELOAD_KEY, '1');
  localStorage.setItem(MODEL_KEY, choice);
  location.reload();
  return true;
}

// ── wiring ──
// The chat in the demo's words: its errors speak of demo mode and of the model picker.
chat.strings = { errors: DEMO_ERRORS };
chat.addEventListener('chat-send', () => ($('#empty').hidden = true));
chat.addEventListener('chat-idle', done);
startZoom($('#graph'));
startSessions(sessionHooks);
startDrawer((view) => void refreshInsight(view));
document.addEventListener('page-changed', updatePageSummary);
$('#model-button').addEventListener('click', () => openDrawer('model'));
$('#mode-more').addEventListener('click', () => openDrawer('model'));
$('#use-demo-mode').addEventListener('click', () => {
  loading?.abort();
  localStorage.removeItem(MODEL_KEY);
  currentModel = standIn();
  closeDrawer();
  void start(currentModel);
});
$<HTMLFormElement>('#model-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void loadModel($<HTMLSelectElement>('#model-select').value);
});
$('#cancel-load').addEventListener('click', () => loading?.abort());
// On a wide screen the page sits beside the chat and stays open; on a phone it folds above it.
const wide = matchMedia('(min-width: 56rem)');
const pane = $<HTMLDetailsElement>('#page-pane');
const keepOpen = () => wide.matches && (pane.open = true);
pane.addEventListener('toggle', keepOpen);
wide.addEventListener('change', keepOpen);

// The built demo works offline after one visit (public/sw.js); the dev server does not need it.
if (!import.meta.hot && 'serviceWorker' in navigator) void navigator.serviceWorker.register('./sw.js');

// The agent starts first: the visitor may type at once, and a message waits for this start, not for the probe.
// The model loaded before the last reload loads again (from the browser's cache); a message waits for it.
const remembered = localStorage.getItem(MODEL_KEY);
const first = remembered ? loadModel(remembered) : start(currentModel);
// The conversation is back at once, from storage, while the model loads again (tens of seconds on a CPU).
const storedSession = localStorage.getItem(SESSION_KEY);
if (storedSession) void chat.showStoredSession(storedSession);
showSuggestions();
await fillPicker(await probeDevice(), remembered ?? undefined);
// The device's verdict replaced the panel: a model loaded meanwhile is said again.
if (agent && currentModel.engine !== 'module' && !loading) showModelPanel();
await first.catch((error: AgentError) => {
  setStatus('crashed');
  chat.showError(error);
});
