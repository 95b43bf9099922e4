// The line at the foot of the chat that says what the agent is doing while nothing else shows it: loading
// the model, reading the request (a CPU model may read for a minute before its first word), reading its
// tools' results. It counts the seconds, so a long wait still reads as work, and says how much of the prompt
// the model has read where the engine tells (llama.cpp). It goes as soon as the model writes (its words
// stream, or a call's card shows), and comes back when the model reads again.
import type { AgentEvent } from '../../src/index';
import { follow } from './follow';

const log = () => document.querySelector<HTMLOListElement>('#log')!;
let line:
  | { item: HTMLLIElement; what: string; since: number; timer: ReturnType<typeof setInterval>; read?: number }
  | undefined;

function render(): void {
  if (!line) return;
  const seconds = Math.floor((performance.now() - line.since) / 1000);
  const read = line.read !== undefined && line.read < 1 ? `${Math.floor(line.read * 100)}%` : '';
  line.item.querySelector('.working-text')!.textContent = `${line.what}…`;
  line.item.querySelector('.working-time')!.textContent = [read, seconds >= 1 ? `${seconds} s` : '']
    .filter(Boolean)
    .join(' · ');
}

/** Shows (or retells) the line, last in the chat; the seconds count from when `what` began. */
export function showWorking(what: string): void {
  if (line && line.what === what) {
    log().append(line.item);
    follow();
    return;
  }
  hideWorking();
  const item = document.createElement('li');
  item.className = 'msg working';
  item.setAttribute('role', 'status');
  const dots = document.createElement('span');
  dots.className = 'working-dots';
  dots.setAttribute('aria-hidden', 'true');
  const text = document.createElement('span');
  text.className = 'working-text';
  const time = document.createElement('span');
  time.className = 'working-time';
  item.append(dots, text, time);
  line = { item, what, since: performance.now(), timer: setInterval(render, 1000) };
  render();
  log().append(item);
  follow();
}

export function hideWorking(): void {
  if (!line) return;
  clearInterval(line.timer);
  line.item.remove();
  line = undefined;
}

/** How much of its prompt the model has read (`read` of `of` tokens), shown beside the seconds until it is all. */
export function showRead(progress: { read: number; of: number }): void {
  if (!line) return;
  line.read = progress.of > 0 ? progress.read / progress.of : 1;
  render();
}

/** What the line says now, if it shows. */
export function workingOn(): string | undefined {
  return line?.what;
}

/**
 * What a live run's event means for the line: the model's words, a call it writes or a decision awaited
 * show the work themselves; answered calls send the model back to reading (their results), unless the run
 * ended there.
 */
export function workingAfter(event: AgentEvent): void {
  if (event.endReason || event.actions?.requestApproval?.length) return hideWorking();
  if (event.partial) {
    if (event.promptRead) showRead(event.promptRead);
    const parts = event.content?.parts ?? [];
    if (event.toolCallStart || (event.content?.role === 'model' && parts.length)) hideWorking();
    return;
  }
  const role = event.content?.role;
  // The run's own record of the message replaced the bubble shown at once: the line stays below it.
  if (role === 'user' && line) log().append(line.item);
  if (role === 'model') hideWorking();
  if (role === 'tool' && !event.late) showWorking('Reading the results');
}
