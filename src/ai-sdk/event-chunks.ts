/**
 * An agent's events as the AI SDK UI's message chunks, for one assistant
 * message: streamed text and reasoning blocks, each model step between
 * start-step and finish-step, each call as a tool part (our runtime runs it,
 * so it is provider-executed), approval requests, denials and results. The
 * same mapping serves a live run and a session restored from storage.
 *
 * Only calls this message holds get chunks: the AI SDK refuses a result for a
 * tool part it does not know, and a run's first events may answer calls of an
 * earlier message (a superseded approval, an interrupted call).
 */
import type { FinishReason, UIMessageChunk } from 'ai';
import { AgentError, type AgentErrorCode, type AgentEvent, type EndReason } from '../index';

type BlockKind = 'text' | 'reasoning';

const FINISH: Record<EndReason, FinishReason> = {
  answer: 'stop',
  'return-direct': 'stop',
  'awaiting-approval': 'tool-calls',
  'long-running': 'tool-calls',
  'max-steps': 'length',
  'max-tool-calls': 'length',
  'repeated-call': 'other',
  aborted: 'other',
  error: 'error',
};

export class EventChunks {
  /** Why the run ended, once an event said so. */
  ending?: EndReason;
  /** The error an ending carried (not an abort): a live transport throws it, a restored chat only shows the parts. */
  failure?: AgentError;
  private readonly calls: Set<string>;
  private readonly denied = new Set<string>();
  private block?: { kind: BlockKind; id: string };
  /** What this step streamed so far, by kind, to be compared with what the step recorded. */
  private streamed: Record<BlockKind, string> = { text: '', reasoning: '' };
  private step: 'none' | 'open' | 'recorded' = 'none';
  private blocks = 0;

  /** `calls`: the tool call ids the message already holds (a message being continued). */
  constructor(calls: Iterable<string> = []) {
    this.calls = new Set(calls);
  }

  push(event: AgentEvent): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    const role = event.content?.role;
    if (event.partial) {
      for (const part of event.content?.parts ?? []) {
        if (role === 'model' && 'text' in part) this.streamInto(out, 'text', part.text);
        else if (role === 'model' && 'reasoning' in part) this.streamInto(out, 'reasoning', part.reasoning);
        else if (role === 'tool' && 'functionResponse' in part && this.calls.has(part.functionResponse.id))
          out.push({
            type: 'tool-output-available',
            toolCallId: part.functionResponse.id,
            output: part.functionResponse.response,
            providerExecuted: true,
            preliminary: true,
          });
      }
      return out;
    }
    if (event.late) return out;
    if (role === 'model') this.modelStep(out, event);
    for (const request of event.actions?.requestApproval ?? [])
      if (this.calls.has(request.callId))
        out.push({ type: 'tool-approval-request', approvalId: request.callId, toolCallId: request.callId });
    const decision = event.actions?.approval;
    if (decision && !decision.granted && this.calls.has(decision.callId)) {
      this.denied.add(decision.callId);
      out.push({ type: 'tool-output-denied', toolCallId: decision.callId });
    }
    if (role === 'tool')
      for (const part of event.content!.parts) {
        if (!('functionResponse' in part)) continue;
        const { id, response, error } = part.functionResponse;
        if (!this.calls.has(id) || this.denied.has(id)) continue;
        out.push(
          error === undefined
            ? { type: 'tool-output-available', toolCallId: id, output: response, providerExecuted: true }
            : { type: 'tool-output-error', toolCallId: id, errorText: error, providerExecuted: true },
        );
      }
    if (event.endReason) {
      this.ending = event.endReason;
      const { error } = event;
      if (error && event.endReason !== 'aborted')
        this.failure = new AgentError(error.code as AgentErrorCode, error.message, {
          details: 'details' in error ? error.details : undefined,
        });
    }
    return out;
  }

  /** What closes the message: the open block, the step, and the finish with its reason. */
  end(): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    this.closeBlock(out);
    if (this.step !== 'none') out.push({ type: 'finish-step' });
    this.step = 'none';
    out.push({ type: 'finish', ...(this.ending && { finishReason: FINISH[this.ending] }) });
    return out;
  }

  /** A recorded model step: what was not streamed (a callback's answer, a replaced one), then its calls. */
  private modelStep(out: UIMessageChunk[], event: AgentEvent): void {
    const parts = event.content!.parts;
    const whole = (kind: BlockKind) =>
      parts.map((part) => (kind in part ? (part as Record<BlockKind, string>)[kind] : '')).join('');
    for (const kind of ['reasoning', 'text'] as const) {
      const recorded = whole(kind);
      const streamed = this.streamed[kind];
      if (recorded === streamed) continue;
      // An answer a callback replaced cannot be taken back on screen: the recorded one follows as a block of its own.
      if (!recorded.startsWith(streamed) && this.block?.kind === kind) this.closeBlock(out);
      this.streamInto(out, kind, recorded.startsWith(streamed) ? recorded.slice(streamed.length) : recorded);
    }
    this.closeBlock(out);
    this.openStep(out);
    for (const part of parts) {
      if (!('functionCall' in part)) continue;
      const { id, name, args } = part.functionCall;
      this.calls.add(id);
      out.push({ type: 'tool-input-start', toolCallId: id, toolName: name, providerExecuted: true });
      out.push({ type: 'tool-input-available', toolCallId: id, toolName: name, input: args, providerExecuted: true });
    }
    this.step = 'recorded';
    this.streamed = { text: '', reasoning: '' };
  }

  private streamInto(out: UIMessageChunk[], kind: BlockKind, text: string): void {
    if (!text) return;
    this.openStep(out);
    if (this.block?.kind !== kind) {
      this.closeBlock(out);
      this.block = { kind, id: `${kind}-${this.blocks++}` };
      out.push({ type: `${kind}-start`, id: this.block.id });
    }
    out.push({ type: `${kind}-delta`, id: this.block.id, delta: text });
    this.streamed[kind] += text;
  }

  /** A new model step starts with the first thing it streams or records; the one before it finishes then. */
  private openStep(out: UIMessageChunk[]): void {
    if (this.step === 'open') return;
    if (this.step === 'recorded') out.push({ type: 'finish-step' });
    out.push({ type: 'start-step' });
    this.step = 'open';
  }

  private closeBlock(out: UIMessageChunk[]): void {
    if (this.block) out.push({ type: `${this.block.kind}-end`, id: this.block.id });
    this.block = undefined;
  }
}
