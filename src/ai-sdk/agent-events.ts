/**
 * An agent's events while some work runs (agent.approve, agent.reject), as
 * they come: those calls give their run's events only at its end, and the
 * agent's `event`s give each one as it happens.
 */
import type { Agent, AgentEvent } from '../index';

export class AgentEvents {
  private readonly events: AgentEvent[] = [];
  private wake?: () => void;
  private readonly listener = (event: Event) => {
    const detail = (event as CustomEvent<AgentEvent>).detail;
    if (detail.sessionId !== this.agent.sessionId) return;
    this.events.push(detail);
    this.wake?.();
  };

  constructor(private readonly agent: Agent) {
    agent.addEventListener('event', this.listener);
  }

  /** The events until `work` settles; then it throws what the work threw. */
  async *until(work: Promise<unknown>): AsyncGenerator<AgentEvent> {
    let settled: { error?: unknown; failed: boolean } | undefined;
    void work
      .then(
        () => (settled = { failed: false }),
        (error: unknown) => (settled = { error, failed: true }),
      )
      .finally(() => this.wake?.());
    for (;;) {
      while (this.events.length) yield this.events.shift()!;
      if (settled) break;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    if (settled.failed) throw settled.error;
  }

  close(): void {
    this.agent.removeEventListener('event', this.listener);
  }
}
