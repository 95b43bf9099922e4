// The sessions: open one, delete one (gone at once, with Undo for a few seconds), export the
// current one as JSONL, import one (titled with the day it was imported, so it differs from its
// original).
import type { Agent } from '../../src/index';
import { toast } from './toast';

export interface SessionsHooks {
  agent(): Agent | undefined;
  open(sessionId: string | undefined): Promise<void>;
}

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

function when(time: number): string {
  return new Date(time).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export async function drawSessions(hooks: SessionsHooks): Promise<void> {
  const agent = hooks.agent();
  if (!agent) return;
  const current = agent.sessionId;
  const sessions = await agent.sessions.list();
  $('#sessions').replaceChildren(
    ...sessions.map((session) => {
      const item = document.createElement('li');
      item.dataset.sessionId = session.id;
      const isCurrent = session.id === current;
      item.classList.toggle('current', isCurrent);
      const label = document.createElement('div');
      label.className = 'session-label';
      const name = document.createElement('strong');
      name.textContent = session.title ?? 'New conversation';
      const meta = document.createElement('span');
      meta.className = 'muted';
      meta.textContent = `${isCurrent ? 'Open now · ' : ''}${session.eventCount} events · ${when(session.updatedAt)}`;
      label.append(name, meta);
      const open = document.createElement('button');
      open.type = 'button';
      open.textContent = 'Open';
      open.disabled = isCurrent;
      open.setAttribute('aria-label', `Open ${name.textContent}`);
      open.addEventListener('click', () => void hooks.open(session.id));
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Delete';
      remove.setAttribute('aria-label', `Delete ${name.textContent}`);
      remove.addEventListener('click', () => void deleteWithUndo(hooks, session.id, name.textContent!, isCurrent));
      item.append(label, open, remove);
      return item;
    }),
  );
}

async function deleteWithUndo(hooks: SessionsHooks, id: string, title: string, wasCurrent: boolean): Promise<void> {
  const agent = hooks.agent()!;
  // Gone from the list at once; kept in memory until the toast goes, so Undo can bring it back.
  document.querySelector(`#sessions li[data-session-id="${CSS.escape(id)}"]`)?.remove();
  const saved = await agent.sessions.export(id);
  await agent.sessions.delete(id);
  toast(`Deleted “${title}”.`, {
    label: 'Undo',
    run: async () => {
      const restored = await hooks.agent()!.sessions.import(saved);
      toast(`Restored “${title}”.`);
      if (wasCurrent) await hooks.open(restored);
      else await drawSessions(hooks);
    },
  });
  if (wasCurrent) await hooks.open(undefined);
  else await drawSessions(hooks);
}

/** The JSONL with its header's title saying it is a copy and when it came in. */
export function titledAsImported(jsonl: string, fileName: string): string {
  const newline = jsonl.indexOf('\n');
  const first = newline < 0 ? jsonl : jsonl.slice(0, newline);
  try {
    const header = JSON.parse(first) as { type?: string; title?: string };
    if (header.type !== 'session') return jsonl;
    const day = new Date().toLocaleDateString(undefined, { dateStyle: 'medium' });
    header.title = `${header.title ?? fileName} (imported ${day})`;
    return JSON.stringify(header) + (newline < 0 ? '' : jsonl.slice(newline));
  } catch {
    // Not JSON: the import itself says what is wrong, with the line number.
    return jsonl;
  }
}

export function startSessions(hooks: SessionsHooks): void {
  $('#new-session').addEventListener('click', () => void hooks.open(undefined));
  $('#export-session').addEventListener('click', async () => {
    const agent = hooks.agent();
    if (!agent) return;
    const jsonl = await agent.sessions.export(agent.sessionId);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([jsonl], { type: 'application/x-ndjson' }));
    link.download = `session-${new Date().toISOString().slice(0, 10)}.jsonl`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    toast('Exported this session as a JSONL file.');
  });
  $<HTMLInputElement>('#import-file').addEventListener('change', async (event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    const agent = hooks.agent();
    if (!file || !agent) return;
    const status = $('#import-status');
    try {
      const id = await agent.sessions.import(titledAsImported(await file.text(), file.name), {
        onProgress: ({ linesDone, linesTotal }) =>
          (status.textContent = `Importing… ${linesDone} / ${linesTotal} lines`),
      });
      status.textContent = `Imported “${file.name}” as a new session; it is open now.`;
      await hooks.open(id);
    } catch (error) {
      status.textContent = `Could not import “${file.name}”: ${(error as Error).message}`;
    } finally {
      input.value = '';
    }
  });
}
