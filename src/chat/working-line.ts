/**
 * The line at the foot of the conversation that says what the agent is doing
 * while nothing else shows it: getting the model ready, reading the request
 * (a CPU model may read for a minute before its first word), reading its
 * tools' results. It counts the seconds, so a long wait still reads as work,
 * and says how much of the prompt the model has read where the engine tells
 * (llama.cpp). It goes as soon as the model writes (its words stream, or a
 * call's card shows), and comes back when the model reads again.
 */
import type { AgentEvent, PromptRead } from '../index';

export class WorkingLine {
  private line:
    | { item: HTMLLIElement; what: string; since: number; timer: ReturnType<typeof setInterval>; read?: number }
    | undefined;

  constructor(
    private readonly log: HTMLOListElement,
    private readonly follow: () => void,
  ) {}

  /** What the line says now, if it shows. */
  get what(): string | undefined {
    return this.line?.what;
  }

  /** Shows (or retells) the line, last in the conversation; the seconds count from when `what` began. */
  show(what: string): void {
    if (this.line && this.line.what === what) {
      this.log.append(this.line.item);
      this.follow();
      return;
    }
    this.hide();
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
    this.line = { item, what, since: performance.now(), timer: setInterval(() => this.render(), 1000) };
    this.render();
    this.log.append(item);
    this.follow();
  }

  hide(): void {
    if (!this.line) return;
    clearInterval(this.line.timer);
    this.line.item.remove();
    this.line = undefined;
  }

  /** How much of its prompt the model has read, shown beside the seconds until it is all. */
  showRead(progress: PromptRead): void {
    if (!this.line) return;
    this.line.read = progress.of > 0 ? progress.read / progress.of : 1;
    this.render();
  }

  /** Keeps the line last, below a message drawn after it. */
  keepLast(): void {
    if (this.line) this.log.append(this.line.item);
  }

  /**
   * What a live run's event means for the line: the model's words, a call it writes or a decision awaited
   * show the work themselves; answered calls send the model back to reading (their results), unless the run
   * ended there.
   */
  after(event: AgentEvent, readingResults: string): void {
    if (event.endReason || event.actions?.requestApproval?.length) return this.hide();
    if (event.partial) {
      if (event.promptRead) this.showRead(event.promptRead);
      const parts = event.content?.parts ?? [];
      if (event.toolCallStart || (event.content?.role === 'model' && parts.length)) this.hide();
      return;
    }
    // The run's own record of the message replaced the bubble shown at once: the line stays below it.
    if (event.type === 'user') this.keepLast();
    if (event.type === 'model') this.hide();
    if (event.type === 'tool' && !event.late) this.show(readingResults);
  }

  private render(): void {
    const line = this.line;
    if (!line) return;
    const seconds = Math.floor((performance.now() - line.since) / 1000);
    const read = line.read !== undefined && line.read < 1 ? `${Math.floor(line.read * 100)}%` : '';
    line.item.querySelector('.working-text')!.textContent = `${line.what}…`;
    line.item.querySelector('.working-time')!.textContent = [read, seconds >= 1 ? `${seconds} s` : '']
      .filter(Boolean)
      .join(' · ');
  }
}
