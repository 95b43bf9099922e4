// The demo: a small page with tools, a chat, the event timeline, the toolkit graph and the
// sessions. With WebGPU a local model runs; without, a scripted tour, labelled as such.
// The session id is kept in localStorage, so a reload picks the conversation up where it was.
import {
  AgentError,
  createAgent,
  type Agent,
  type AgentEvent,
  type ApprovalRequest,
  type ModelOptions,
} from '../src/index';
import { addTodoItem, pageTools } from './app/page-tools';
import { tourPrompts, tourTurns } from './tour';
import { modelChoices } from './models';
import { clearChat, showEvent } from './ui/chat';
import { drawTimeline } from './ui/timeline';

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const SESSION_KEY = 'inpage-agent-demo:session';
/** How many scripted turns a session has played, so that a reload continues the tour instead of replaying it. */
const playedKey = (sessionId: string) => `inpage-agent-demo:played:${sessionId}`;

let agent: Agent | undefined;
let events: AgentEvent[] = [];
let running: AbortController | undefined;
let lastPrompt = '';
let tourStep = 0;
let scripted = true;

// ── approval: an accessible dialog; Escape or "Don't allow" rejects ──
function askApproval(call: ApprovalRequest): Promise<boolean> {
  const dialog = $<HTMLDialogElement>('#approval');
  $('#approval-text').textContent = `The agent wants to run “${call.name}”. This cannot be undone.`;
  $('#approval-args').textContent = JSON.stringify(call.args, null, 2);
  dialog.returnValue = '';
  dialog.showModal();
  $<HTMLButtonElement>('#approval-reject').focus();
  return new Promise((resolve) =>
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'approve'), { once: true }),
  );
}

// ── the agent ──
async function start(model: ModelOptions, controller?: AbortController): Promise<void> {
  await agent?.close();
  agent = undefined;
  scripted = model.engine === 'scripted';
  $('#tour-label').hidden = !scripted;
  $('#tour-hint').hidden = !scripted;
  $('#model-label').textContent = scripted
    ? 'Scripted tour — no model is running'
    : `Loading ${model.engine === 'webllm' ? model.modelId : ''}…`;
  const sessionId = localStorage.getItem(SESSION_KEY) ?? undefined;
  const played = scripted && sessionId ? Number(localStorage.getItem(playedKey(sessionId)) ?? 0) : 0;
  const next = await createAgent({
    model: model.engine === 'scripted' ? { ...model, turns: model.turns.slice(played) } : model,
    instructions:
      'You help with this page: its to-dos, notes, products table and contact form. Use the tools; answer briefly.',
    tools: pageTools,
    storage: 'auto',
    sessionId,
    toolkit: { startActions: ['organize'], hops: 3 },
    onApproval: askApproval,
    signal: controller?.signal,
  });
  agent = next;
  next.addEventListener(
    'status',
    (event) => ($('#agent-status').textContent = (event as CustomEvent<{ status: string }>).detail.status),
  );
  $('#agent-status').textContent = next.status;
  localStorage.setItem(SESSION_KEY, next.sessionId);
  $('#model-label').textContent = next.info?.model.label ?? '';
  await ensureToolkit(next);
  await openSession(next);
}

/** The page's toolkit graph: which tools belong to which step of the work. Built once per database. */
async function ensureToolkit(target: Agent): Promise<void> {
  const graph = await target.toolkit.toJSON();
  if (graph.vertices.length) return;
  await target.toolkit.addAction({ id: 'organize', name: 'Organize', description: 'to-dos' });
  await target.toolkit.addAction(
    { id: 'write', name: 'Write', description: 'notes' },
    [],
    [{ action: 'organize', score: 0.8 }],
  );
  await target.toolkit.addAction(
    { id: 'analyze', name: 'Analyze', description: 'the products table' },
    [],
    [{ action: 'write', score: 0.7 }],
  );
  await target.toolkit.addAction(
    { id: 'contact', name: 'Contact', description: 'the form' },
    [{ action: 'organize', score: 0.6 }],
    [{ action: 'analyze', score: 0.6 }],
  );
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

/** Shows a session from its events, and rebuilds the page's to-dos from the calls that made them. */
async function openSession(target: Agent): Promise<void> {
  clearChat();
  $('#todos').replaceChildren();
  events = (await target.sessions.get(target.sessionId))?.events ?? [];
  for (const event of events) {
    showEvent(event);
    for (const part of event.content?.parts ?? []) {
      if ('functionCall' in part && part.functionCall.name === 'add_todo')
        addTodoItem((part.functionCall.args as { text: string }).text);
      if ('functionCall' in part && part.functionCall.name === 'clear_todos' && responded(part.functionCall.id))
        $('#todos').replaceChildren();
    }
  }
  tourStep = Math.min(tourPrompts.length, events.filter((event) => event.content?.role === 'user').length);
  rememberPlayed(target);
  showTourStep();
  await refreshInsight();
  await refreshSessions();
}

function rememberPlayed(target: Agent | undefined): void {
  if (target && scripted)
    localStorage.setItem(
      playedKey(target.sessionId),
      String(events.filter((event) => event.content?.role === 'model').length),
    );
}

function responded(callId: string): boolean {
  return events.some((event) =>
    event.content?.parts.some(
      (part) => 'functionResponse' in part && part.functionResponse.id === callId && !part.functionResponse.error,
    ),
  );
}

async function ask(text: string): Promise<void> {
  if (!agent || running || !text.trim()) return;
  lastPrompt = text;
  running = new AbortController();
  $<HTMLButtonElement>('#stop').disabled = false;
  $<HTMLButtonElement>('#send').disabled = true;
  try {
    for await (const event of agent.run(text, { signal: running.signal })) {
      showEvent(event);
      if (!event.partial) events.push(event);
    }
  } catch (error) {
    showEvent({
      id: '',
      sessionId: '',
      invocationId: '',
      seq: 0,
      author: 'system',
      timestamp: Date.now(),
      error: { code: (error as AgentError).code ?? 'error', message: (error as Error).message },
    });
  } finally {
    running = undefined;
    $<HTMLButtonElement>('#stop').disabled = true;
    $<HTMLButtonElement>('#send').disabled = false;
    $<HTMLButtonElement>('#retry').disabled = false;
    if (scripted) tourStep = Math.min(tourPrompts.length, tourStep + 1);
    rememberPlayed(agent);
    showTourStep();
    await refreshInsight();
    await refreshSessions();
  }
}

function showTourStep(): void {
  const next = tourPrompts[tourStep];
  $('#next-step').textContent = next ?? 'The tour is over.';
  $<HTMLButtonElement>('#next-step').disabled = !next;
}

// ── insight: timeline, toolkit graph, per-tool stats ──
async function refreshInsight(): Promise<void> {
  if (!agent) return;
  drawTimeline($('#timeline'), events);
  const list = $('#events');
  list.replaceChildren(
    ...events.map((event) => {
      const item = document.createElement('li');
      item.tabIndex = 0;
      item.textContent = `#${event.seq} ${event.author} ${event.content?.role ?? (event.actions?.approval ? 'approval' : '')} ${event.endReason ?? ''}`;
      const detail = document.createElement('pre');
      detail.hidden = true;
      detail.textContent = JSON.stringify(
        {
          content: event.content,
          actions: event.actions,
          offeredTools: event.offeredTools,
          timing: event.timing,
          usage: event.usage,
          error: event.error,
        },
        null,
        2,
      );
      const toggle = () => (detail.hidden = !detail.hidden);
      item.addEventListener('click', toggle);
      item.addEventListener('keydown', (e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), toggle()));
      item.append(detail);
      return item;
    }),
  );
  // The graph is an SVG string we produce ourselves, with every name escaped.
  const svg: string = await agent.toolkit.render({
    highlight: ['organize'],
    hops: 1,
    title: 'Toolkit graph (bold: offered at the start)',
  });
  $('#graph').innerHTML = svg;
  const stats = await agent.stats();
  $('#stats tbody').replaceChildren(
    ...Object.entries(stats.tools).map(([name, tool]) => {
      const row = document.createElement('tr');
      for (const value of [name, tool.calls, tool.errors, tool.p50Ms.toFixed(1)]) {
        const cell = document.createElement('td');
        cell.textContent = String(value);
        row.append(cell);
      }
      return row;
    }),
  );
}

// ── sessions: list, resume, delete, export, import ──
async function refreshSessions(): Promise<void> {
  if (!agent) return;
  const current = agent.sessionId;
  const sessions = await agent.sessions.list();
  $('#sessions').replaceChildren(
    ...sessions.map((session) => {
      const item = document.createElement('li');
      item.classList.toggle('current', session.id === current);
      const label = document.createElement('span');
      label.textContent = `${session.title ?? 'New session'} · ${session.eventCount} events`;
      const open = document.createElement('button');
      open.textContent = session.id === current ? 'Open' : 'Resume';
      open.disabled = session.id === current;
      open.addEventListener('click', () => switchTo(session.id));
      const remove = document.createElement('button');
      remove.textContent = 'Delete';
      remove.setAttribute('aria-label', `Delete ${session.title ?? 'session'}`);
      remove.addEventListener('click', async () => {
        await agent!.sessions.delete(session.id);
        if (session.id === current) await switchTo(undefined);
        else await refreshSessions();
      });
      item.append(label, open, remove);
      return item;
    }),
  );
}

async function switchTo(sessionId: string | undefined): Promise<void> {
  if (sessionId) localStorage.setItem(SESSION_KEY, sessionId);
  else localStorage.removeItem(SESSION_KEY);
  await start(currentModel);
}

// ── model: picker, progress, the panels that say what to do ──
let currentModel: ModelOptions = { engine: 'scripted', turns: tourTurns };
let loading: AbortController | undefined;

async function probeGpu(): Promise<{ adapter: boolean; f16: boolean }> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ features: Set<string> } | null> } }).gpu;
  const adapter = await gpu?.requestAdapter().catch(() => null);
  return { adapter: Boolean(adapter), f16: Boolean(adapter?.features.has('shader-f16')) };
}

function notice(text: string, error = false): void {
  const panel = $('#gpu-panel');
  panel.hidden = false;
  panel.classList.toggle('error', error);
  panel.textContent = text;
}

async function setUpModels(): Promise<void> {
  const gpu = await probeGpu();
  const cached = new Set<string>();
  try {
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys())
        for (const choice of modelChoices) if (request.url.includes(choice.id)) cached.add(choice.id);
  } catch {
    // No Cache Storage (e.g. an opaque origin): sizes are still shown.
  }
  $('#model-select').replaceChildren(
    ...modelChoices.map((choice) => {
      const option = document.createElement('option');
      option.value = choice.id;
      option.disabled = !gpu.adapter || (choice.needsF16 && !gpu.f16);
      option.textContent = `${choice.label} · ${(choice.vramMB / 1024).toFixed(1)} GB${choice.needsF16 ? ' · needs shader-f16' : ''}${cached.has(choice.id) ? ' · cached' : ''}`;
      return option;
    }),
  );
  if (!gpu.adapter) {
    notice(
      'No WebGPU here, so no local model can run. In Chrome, WebGPU needs a supported GPU (or chrome://flags/#enable-unsafe-webgpu). The scripted tour below shows everything else for real: the tools, approval, sessions and the toolkit.',
    );
    $<HTMLButtonElement>('#load-model').disabled = true;
  } else if (!gpu.f16) {
    notice('This GPU has no shader-f16: pick a q4f32 model (the others are greyed out).');
  }
}

async function loadModel(modelId: string): Promise<void> {
  loading = new AbortController();
  $('#progress').hidden = false;
  $('#cancel-load').hidden = false;
  try {
    currentModel = {
      engine: 'webllm',
      modelId,
      onProgress: ({ progress, text, loadedBytes, totalBytes }) => {
        $<HTMLProgressElement>('#progress-bar').value = progress;
        $('#progress-text').textContent =
          loadedBytes && totalBytes
            ? `${(loadedBytes / 2 ** 20).toFixed(0)} / ${(totalBytes / 2 ** 20).toFixed(0)} MB · ${text}`
            : text;
      },
    };
    await start(currentModel, loading);
    $('#gpu-panel').hidden = true;
  } catch (error) {
    const code = (error as AgentError).code;
    notice(
      `${code === 'aborted' ? 'Download cancelled.' : (error as Error).message} The scripted tour still works.`,
      code !== 'aborted',
    );
    currentModel = { engine: 'scripted', turns: tourTurns };
    await start(currentModel);
  } finally {
    loading = undefined;
    $('#progress').hidden = true;
    $('#cancel-load').hidden = true;
  }
}

// ── wiring ──
$<HTMLFormElement>('#ask').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $<HTMLInputElement>('#prompt');
  void ask(input.value);
  input.value = '';
});
$('#stop').addEventListener('click', () => running?.abort());
$('#retry').addEventListener('click', () => void ask(lastPrompt));
$('#next-step').addEventListener('click', () => void ask(tourPrompts[tourStep] ?? ''));
$('#scripted-tour').addEventListener('click', () => {
  currentModel = { engine: 'scripted', turns: tourTurns };
  void start(currentModel);
});
$<HTMLFormElement>('#model-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void loadModel($<HTMLSelectElement>('#model-select').value);
});
$('#cancel-load').addEventListener('click', () => loading?.abort());
$('#new-session').addEventListener('click', () => void switchTo(undefined));
$('#export-session').addEventListener('click', async () => {
  if (!agent) return;
  const jsonl = await agent.sessions.export(agent.sessionId);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([jsonl], { type: 'application/x-ndjson' }));
  link.download = `session-${agent.sessionId}.jsonl`;
  link.click();
  URL.revokeObjectURL(link.href);
});
$<HTMLInputElement>('#import-file').addEventListener('change', async (event) => {
  const file = (event.target as HTMLInputElement).files?.[0];
  if (!file || !agent) return;
  const status = $('#import-status');
  try {
    const id = await agent.sessions.import(await file.text(), {
      onProgress: ({ linesDone, linesTotal }) => (status.textContent = `Importing… ${linesDone} / ${linesTotal} lines`),
    });
    status.textContent = `Imported as a new session.`;
    await switchTo(id);
  } catch (error) {
    status.textContent = (error as Error).message;
  }
});

// The built demo works offline after one visit (public/sw.js); the dev server does not need it.
if (!import.meta.hot && 'serviceWorker' in navigator) void navigator.serviceWorker.register('./sw.js');

await setUpModels();
await start(currentModel);
