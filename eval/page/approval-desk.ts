/**
 * The visitor at the page's approval dialog: says yes to a destructive call
 * when the request asked for that action (the request's `approves`), no to
 * any other (a model that clears the list unasked is wrong, and counted),
 * and keeps what was asked in the request.
 */
import type { ApprovalRequest } from '../../src/index';

export class ApprovalDesk {
  private approves: readonly string[] = [];
  private asked: { name: string; granted: boolean }[] = [];

  /** A new request: what its visitor approves. */
  open(approves: readonly string[] = []): void {
    this.approves = approves;
    this.asked = [];
  }

  /** createAgent's onApproval. */
  readonly decide = (call: ApprovalRequest): boolean => {
    const granted = this.approves.includes(call.name);
    this.asked.push({ name: call.name, granted });
    return granted;
  };

  /** The approvals the page asked for since the request opened. */
  get approvals(): readonly { name: string; granted: boolean }[] {
    return this.asked;
  }
}
