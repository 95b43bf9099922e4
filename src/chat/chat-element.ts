/**
 * <inpage-agent-chat>: a conversation with an agent, to drop into any page.
 *
 *   chat.agent = await createAgent({ …, onApproval: (call) => chat.approve(call) });
 *
 * or, with no agent set, attributes make one: `model-url` (a GGUF, run on
 * the CPU by llama.cpp), `instructions`, and `form-tools` (the page's forms
 * marked the WebMCP way become its tools). The chat draws whatever the
 * agent's runs do (its own and the page's), sends what the visitor types,
 * shows each call in a card and asks the person in it, keeps the session
 * across reloads and goes on with a run a reload cut off.
 *
 * The chat reaches the runtime only through the package's public API.
 */
import {
  createAgent,
  getSession,
  importFormTools,
  type Agent,
  type AgentEvent,
  type ApprovalRequest,
  type ModelProgress,
  type PromptRead,
} from '../index';
import { ChatView } from './chat-view';
import { Follower } from './follow';
import { defaultStrings, mergeStrings, type ChatStrings, type DeepPartial } from './strings';
import { CHAT_CSS } from './styles';
import { WorkingLine } from './working-line';

/** Events recorded outside any run (the answers a reload gives the calls it cut off, notices): never a run's end. */
const OUTSIDE_RUNS = ['repair', 'storage'];

const TEMPLATE = `
<div class="status" part="status" role="status" hidden><progress max="1"></progress><span class="status-text"></span></div>
<div class="scroller" id="scroller" part="scroller">
  <div class="empty" part="empty"><slot name="empty"></slot></div>
  <ol class="log" id="log" part="log" role="log" aria-live="off"></ol>
  <div class="after-log" part="after-log"><slot name="after-log"></slot></div>
</div>
<button type="button" class="jump" id="jump" hidden></button>
<form class="composer" id="ask" part="composer">
  <label for="prompt" class="visually-hidden" id="prompt-label"></label>
  <textarea id="prompt" name="prompt" rows="1" autocomplete="off" part="prompt"></textarea>
  <button type="submit" id="send" class="primary" part="send"></button>
  <button type="button" id="stop" part="stop" hidden></button>
</form>
<div class="visually-hidden" id="announcer" role="status" aria-live="polite"></div>
`;

/** Where there is no DOM (a server rendering the page's modules), the class still loads, and is never defined. */
const ElementBase = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

export class InpageAgentChat extends ElementBase {
  static readonly observedAttributes = ['model-url', 'instructions', 'form-tools'];

  /**
   * Called with a session's stored events each time the chat shows one (when an agent is attached, and on
   * showSession()), before a run a reload cut off goes on: a page puts its own state back from them.
   */
  onSession: ((events: AgentEvent[]) => void | Promise<void>) | undefined;

  readonly #root: ShadowRoot;
  readonly #view: ChatView;
  readonly #working: WorkingLine;
  readonly #follower: Follower;
  #strings: ChatStrings = defaultStrings;
  #agent: Agent | undefined;
  /** The agent being attached; a message sent meanwhile waits for it. */
  #starting: Promise<Agent | undefined> = Promise.resolve(undefined);
  /** Listeners on the attached agent, and its form tools' watch: removed when another comes. */
  #attached: AbortController | undefined;
  /** The agent this chat made from its attributes, closed when it is replaced. */
  #own: { agent: Promise<Agent | undefined>; controller: AbortController } | undefined;
  /** A run this chat drives (a message, a decision, a resume): Stop aborts it. */
  #running: AbortController | undefined;
  /** The bubble of the message being sent, until the run records it. */
  #pending: HTMLLIElement | undefined;
  /** The events showStoredSession drew before the agent was ready: the page was told of them (onSession) once. */
  #drawnEarly: AgentEvent[] | undefined;
  #connectedOnce = false;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    // A constructed sheet, not a <style>: a page's Content-Security-Policy without 'unsafe-inline' styles allows it.
    this.#root.adoptedStyleSheets = [chatSheet()];
    this.#root.innerHTML = TEMPLATE;
    const log = this.#$<HTMLOListElement>('#log');
    this.#follower = new Follower(this.#$('#scroller'), this.#$<HTMLButtonElement>('#jump'));
    const follow = () => this.#follower.follow();
    this.#working = new WorkingLine(log, follow);
    this.#view = new ChatView(log, {
      strings: () => this.#strings,
      tool: (name) => this.#tool(name),
      ask: (text) => void this.send(text),
      decide: (callId, granted) => void this.#decide(callId, granted),
      announce: (text) => this.#announce(text),
      follow: () => {
        follow();
        this.#emptyChanged();
      },
    });
    this.#wireComposer();
    this.#applyStrings();
  }

  // ── the public surface ──

  /** The agent the chat talks to. Set it to an agent, or to the promise of one (messages wait for it). */
  get agent(): Agent | undefined {
    return this.#agent;
  }

  set agent(value: Agent | PromiseLike<Agent> | undefined) {
    // The page's agent replaces one the attributes made.
    this.#dropOwn();
    this.#attach(value);
  }

  /** The words the chat uses; a page replaces any of them (the rest keep the defaults). */
  get strings(): ChatStrings {
    return this.#strings;
  }

  set strings(value: DeepPartial<ChatStrings> | undefined) {
    this.#strings = mergeStrings(value);
    this.#applyStrings();
  }

  /** Whether the conversation shows nothing yet. */
  get isEmpty(): boolean {
    return this.#view.isEmpty;
  }

  /** Whether a run this chat drives is under way. */
  get running(): boolean {
    return this.#running !== undefined;
  }

  /**
   * An onApproval for createAgent: shows the call's card with Allow and Don't allow, and resolves with the
   * person's choice. Focus goes to "Don't allow" (the safe choice) unless `focus` is false.
   */
  approve = (call: ApprovalRequest, { focus = true }: { focus?: boolean } = {}): Promise<boolean> =>
    this.#view.askInline(call, focus).then((granted) => {
      // A decision is like a message: the visitor wants to see what it leads to, wherever the view was.
      this.#follower.pin();
      return granted;
    });

  /** Sends a message as if the visitor had typed it. It shows at once, and runs once the agent is ready. */
  async send(text: string): Promise<void> {
    if (this.#running || !text.trim()) return;
    const controller = (this.#running = new AbortController());
    this.#follower.pin();
    const pending = this.#view.showPending(text);
    this.#pending = pending;
    sessionStorage.setItem(this.#key('pending'), text);
    this.dispatchEvent(new CustomEvent('chat-send', { detail: { text }, bubbles: true, composed: true }));
    this.#setRunning(true);
    const status = this.#agent?.status;
    if (!this.#agent || status === 'starting' || status === 'loading-model')
      this.#working.show(this.#strings.working.starting);
    else this.#showReadingWhat();
    const target = await this.#ready();
    const unsent = (reason: string) => {
      this.#working.hide();
      this.#view.showUnsent(pending, reason, () => void this.send(text));
    };
    try {
      if (!target) return unsent(this.#strings.notSent.noAgent);
      if (controller.signal.aborted) return unsent(this.#strings.notSent.stoppedBeforeReady);
      this.#showReadingWhat();
      for await (const _event of target.run(text, { signal: controller.signal })) {
        // Drawn by the agent's 'event' listener (#onEvent), as every run of the agent is.
      }
    } catch (error) {
      const failed = asError(error);
      if (pending.isConnected) unsent(this.#strings.notSent.failed(this.#errorText(failed)));
      else this.showError(failed);
    } finally {
      this.#pending = undefined;
      sessionStorage.removeItem(this.#key('pending'));
      this.#done(controller);
    }
  }

  /** Stops the run the chat drives, if any (what arrived stays, and the chat says it stopped). */
  stop(): void {
    this.#running?.abort();
  }

  /**
   * Shows the agent's current session from its stored events (after agent.openSession(), for one), and
   * goes on with its last run if a reload cut it off. Resolves with the events it drew.
   */
  async showSession(): Promise<AgentEvent[]> {
    const target = this.#agent;
    if (!target) return [];
    const events = (await target.sessions.get(target.sessionId))?.events ?? [];
    if (target !== this.#agent) return [];
    const early = this.#drawnEarly;
    this.#drawnEarly = undefined;
    // The line showStoredSession put below the conversation: the agent is ready now.
    if (!this.#running) this.#working.hide();
    // Drawn again even when showStoredSession drew the same: how a tool shows (its name, whether it asks) is
    // the agent's to say. The page was told of those events already.
    this.#draw(events);
    if (!early || !sameEvents(early, events)) await this.onSession?.(events);
    // A run the last reload cut off (its last event has no ending) goes on, with the model loaded now.
    const last = events.findLast((event) => !event.late && !OUTSIDE_RUNS.includes(event.invocationId));
    if (last && !last.endReason) void this.#goOn(target, (signal) => target.resume({ signal }), true);
    return events;
  }

  /**
   * Draws a stored session at once, read from IndexedDB on the page's thread, before an agent is ready (after
   * a reload, while a CPU model loads again for many seconds): the conversation is back in a moment, and a
   * line below it counts the seconds until the agent is ready. The agent then shows the session (onSession is
   * not called again for the same events), and goes on with a run the reload cut off. Does nothing once an
   * agent is attached.
   * Resolves with the events it drew.
   */
  async showStoredSession(sessionId: string, options: { dbName?: string } = {}): Promise<AgentEvent[]> {
    const events = this.#agent ? [] : ((await getSession(sessionId, options).catch(() => undefined))?.events ?? []);
    // An agent came meanwhile: it draws its own session.
    if (this.#agent || !events.length) return [];
    this.#draw(events);
    this.#drawnEarly = events;
    await this.onSession?.(events);
    if (!this.#agent) this.#working.show(this.#strings.working.starting);
    return events;
  }

  /** Flashes the message or card that shows an event (from a timeline, say); false when the chat has none. */
  reveal(eventId: string): boolean {
    return this.#view.reveal(eventId);
  }

  /** Shows an error in the conversation, in the chat's words for its code (a failed start, say). */
  showError(error: { code?: string; message: string }): void {
    this.#view.showError({
      id: `local-${Date.now()}`,
      invocationId: '',
      error: { code: error.code ?? 'error', message: error.message },
    });
  }

  /** Shows a model's download in the strip above the conversation (createAgent's model.onProgress); done at 1. */
  showProgress(progress: ModelProgress): void {
    const done = progress.progress >= 1;
    const percent = progress.totalBytes || progress.progress > 0 ? Math.floor(progress.progress * 100) : undefined;
    this.#status(
      done ? undefined : { value: progress.progress, text: this.#strings.downloading(percent, progress.text) },
    );
  }

  // ── lifecycle ──

  connectedCallback(): void {
    if (!this.#connectedOnce) {
      this.#connectedOnce = true;
      this.#restoreCutOff();
    }
    // Back in the page after it left it: the agent's runs are drawn again.
    if (this.#agent && !this.#attached) this.#listen(this.#agent);
    if (this.hasAttribute('model-url') && !this.#agent && !this.#own) this.#makeOwn();
  }

  disconnectedCallback(): void {
    // Moved within the page: kept. Gone: it stops listening to the agent, and the agent it made goes with it.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#attached?.abort();
      this.#attached = undefined;
      // Its own agent closes: back in the page, it makes a new one (on the same session).
      if (this.#dropOwn()) this.#attach(undefined);
    });
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null): void {
    if (before === after || !this.isConnected) return;
    if (name === 'form-tools') return this.#watchForms();
    // The agent the attributes made follows them; a page's own agent is the page's.
    if (this.#own || (!this.#agent && name === 'model-url')) {
      this.#dropOwn();
      if (this.hasAttribute('model-url')) this.#makeOwn();
    }
  }

  // ── the agent ──

  #attach(value: Agent | PromiseLike<Agent> | undefined): void {
    this.#running?.abort();
    this.#attached?.abort();
    this.#attached = undefined;
    this.#agent = undefined;
    const turn = ++this.#attaches;
    const attaching = (async () => {
      const agent = await value;
      // Another agent was set meanwhile: that one is the chat's.
      if (turn !== this.#attaches || !agent) return agent;
      this.#agent = agent;
      this.#listen(agent);
      await this.showSession();
      return agent;
    })();
    this.#starting = attaching;
    attaching.then(
      (agent) => agent ?? this.#noAgentCame(turn),
      () => this.#noAgentCame(turn),
    );
  }

  #attaches = 0;

  /** An attach that brought no agent: the line showStoredSession put up goes (a message waiting says it was not sent). */
  #noAgentCame(turn: number): void {
    if (turn === this.#attaches && !this.#running) this.#working.hide();
  }

  /** The agent once every attach under way has ended (a message waits for the one that replaces the agent), if any. */
  async #ready(): Promise<Agent | undefined> {
    for (;;) {
      const current = this.#starting;
      await current.catch(() => undefined);
      if (current === this.#starting) return this.#agent;
    }
  }

  #listen(agent: Agent): void {
    const controller = (this.#attached = new AbortController());
    const { signal } = controller;
    agent.addEventListener('event', (event) => this.#onEvent(agent, (event as CustomEvent<AgentEvent>).detail), {
      signal,
    });
    agent.addEventListener(
      'warmup-progress',
      (event) => {
        const progress = (event as CustomEvent<PromptRead>).detail;
        if (this.#working.what === this.#strings.working.readingAhead) this.#working.showRead(progress);
        const share = Math.floor((progress.read / Math.max(1, progress.of)) * 100);
        this.#status(
          progress.read < progress.of
            ? { value: share / 100, text: this.#strings.readingAheadStatus(share) }
            : undefined,
        );
      },
      { signal },
    );
    agent.addEventListener(
      'warmup',
      () => {
        this.#status(undefined);
        if (this.#working.what === this.#strings.working.readingAhead)
          this.#working.show(this.#strings.working.readingRequest);
      },
      { signal },
    );
    this.#watchForms();
  }

  #onEvent(agent: Agent, event: AgentEvent): void {
    // A run stopped by a switch to another session still ends: its last events are not this session's.
    if (agent !== this.#agent || event.sessionId !== agent.sessionId) return;
    const pending = event.type === 'user' ? this.#pending : undefined;
    if (pending) {
      // Recorded: from here on a reload goes on with it (showSession).
      this.#pending = undefined;
      sessionStorage.removeItem(this.#key('pending'));
    }
    this.#view.showEvent(event, { live: true, replacing: pending });
    if (this.#running) this.#working.after(event, this.#strings.working.readingResults);
  }

  /** The page's marked forms as the agent's tools, kept in step with the page, while `form-tools` is set. */
  #watchForms(): void {
    const agent = this.#agent;
    const attached = this.#attached;
    if (!agent || !attached || !this.hasAttribute('form-tools')) return;
    importFormTools(document, { agent, signal: attached.signal });
  }

  #makeOwn(): void {
    const controller = new AbortController();
    const url = this.getAttribute('model-url')!;
    const sessionKey = this.#key('session');
    const making = createAgent({
      model: { engine: 'wllama', url, onProgress: (progress) => this.showProgress(progress) },
      instructions: this.getAttribute('instructions') ?? 'You help with this page. Use its tools; answer briefly.',
      tools: this.hasAttribute('form-tools') ? importFormTools(document) : [],
      sessionId: localStorage.getItem(sessionKey) ?? undefined,
      storage: 'auto',
      warmup: true,
      onApproval: (call) => this.approve(call),
      signal: controller.signal,
    }).then((agent) => {
      localStorage.setItem(sessionKey, agent.sessionId);
      return agent;
    });
    const own = { agent: making.catch(() => undefined), controller };
    this.#own = own;
    making.catch((error: unknown) => {
      if (this.#own !== own) return;
      this.#status(undefined);
      this.showError(asError(error));
    });
    this.#attach(making);
    // After a reload the conversation shows at once, while the model loads again.
    const stored = localStorage.getItem(sessionKey);
    if (stored) void this.showStoredSession(stored);
  }

  /** Closes the agent the attributes made, if any; says whether there was one. */
  #dropOwn(): boolean {
    const own = this.#own;
    if (!own) return false;
    this.#own = undefined;
    own.controller.abort();
    void own.agent.then((agent) => agent?.close());
    return true;
  }

  // ── runs ──

  /** Goes on with a run (a resume after a reload, a paused call's decision): the chat shows it as its own. */
  async #goOn(
    target: Agent,
    run: (signal: AbortSignal) => AsyncIterable<unknown> | Promise<unknown>,
    resuming = false,
  ): Promise<void> {
    if (this.#running) return;
    const controller = (this.#running = new AbortController());
    this.#setRunning(true);
    if (resuming) this.#working.show(this.#strings.working.resuming);
    try {
      const going = run(controller.signal);
      if (Symbol.asyncIterator in (going as object)) for await (const _ of going as AsyncIterable<unknown>);
      else await going;
    } catch (error) {
      this.showError(asError(error));
    } finally {
      this.#done(controller);
    }
  }

  /** The person's choices on the calls of a paused run (an agent without onApproval), each in turn. */
  #decide(callId: string, granted: boolean): Promise<void> {
    this.#follower.pin();
    this.#deciding = this.#deciding.then(async () => {
      const target = this.#agent;
      if (!target) return;
      await this.#goOn(target, (signal) =>
        granted ? target.approve(callId, { signal }) : target.reject(callId, undefined, { signal }),
      );
    });
    return this.#deciding;
  }

  #deciding: Promise<void> = Promise.resolve();

  #done(controller: AbortController): void {
    if (this.#running !== controller) return;
    this.#working.hide();
    this.#running = undefined;
    this.#setRunning(false);
    this.#emptyChanged();
    this.dispatchEvent(new CustomEvent('chat-idle', { bubbles: true, composed: true }));
  }

  /** What the model reads before its first word: the instructions and tools ahead (how far, once it tells), or the request. */
  #showReadingWhat(): void {
    if (!this.#agent?.readingAhead) return this.#working.show(this.#strings.working.readingRequest);
    this.#working.show(this.#strings.working.readingAhead);
  }

  // ── the view around the conversation ──

  #wireComposer(): void {
    const prompt = this.#$<HTMLTextAreaElement>('#prompt');
    const form = this.#$<HTMLFormElement>('#ask');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = prompt.value;
      if (!text.trim() || this.#running) return;
      prompt.value = '';
      prompt.style.height = '';
      void this.send(text);
    });
    prompt.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
      if (event.key === 'Escape' && this.#running) this.stop();
    });
    prompt.addEventListener('input', () => {
      prompt.style.height = '';
      prompt.style.height = `${Math.min(prompt.scrollHeight, 160)}px`;
    });
    this.#$('#stop').addEventListener('click', () => this.stop());
  }

  #setRunning(on: boolean): void {
    const stop = this.#$<HTMLButtonElement>('#stop');
    this.#$<HTMLButtonElement>('#send').hidden = on;
    stop.hidden = !on;
    if (on) stop.focus({ preventScroll: true });
    else {
      // Back to the box, unless the visitor's focus went somewhere of their own.
      const inner = this.#root.activeElement;
      const outer = document.activeElement;
      if (outer === null || outer === document.body || (outer === this && (!inner || inner === stop)))
        this.#$<HTMLTextAreaElement>('#prompt').focus({ preventScroll: true });
    }
  }

  #applyStrings(): void {
    const strings = this.#strings;
    this.#$('#prompt-label').textContent = strings.promptLabel;
    this.#$<HTMLTextAreaElement>('#prompt').placeholder = this.getAttribute('placeholder') ?? strings.placeholder;
    this.#$('#send').textContent = strings.send;
    this.#$('#stop').textContent = strings.stop;
    this.#$('#jump').textContent = strings.newest;
    this.#$('#log').setAttribute('aria-label', strings.conversation);
  }

  /** A session's events in place of what the conversation showed; a message still waiting to be sent stays last. */
  #draw(events: AgentEvent[]): void {
    this.#view.clear();
    this.#follower.pin();
    for (const event of events) this.#view.showEvent(event);
    this.#view.keepPendingLast();
    this.#emptyChanged();
  }

  #emptyChanged(): void {
    this.#$('.empty').hidden = !this.#view.isEmpty;
  }

  #status(shown: { value: number; text: string } | undefined): void {
    const strip = this.#$('.status');
    strip.hidden = !shown;
    if (!shown) return;
    this.#$<HTMLProgressElement>('.status progress').value = shown.value;
    this.#$('.status-text').textContent = shown.text;
  }

  #announce(text: string): void {
    const region = this.#$('#announcer');
    region.textContent = '';
    // A change after a frame is announced even when the words are the same as the last.
    requestAnimationFrame(() => (region.textContent = text));
  }

  #tool(name: string): { displayName: string; asksFirst: boolean; destructive: boolean } {
    const declaration = this.#agent?.declaredTools().find((tool) => tool.name === name);
    return {
      displayName: declaration?.displayName ?? name,
      asksFirst: declaration !== undefined && declaration.needsApproval !== false,
      // A tool the page does not describe (any more) is taken at its worst.
      destructive: declaration ? declaration.annotations.destructive === true : true,
    };
  }

  #errorText(error: { code?: string }): string {
    return this.#strings.errors[error.code ?? ''] ?? this.#strings.errors.unknown;
  }

  /** A message the last reload cut off before the agent took it stays in sight, with the reason and a way to send it. */
  #restoreCutOff(): void {
    const cutOff = sessionStorage.getItem(this.#key('pending'));
    if (!cutOff) return;
    sessionStorage.removeItem(this.#key('pending'));
    this.#view.showUnsent(this.#view.showPending(cutOff), this.#strings.notSent.reloaded, () => void this.send(cutOff));
    this.#emptyChanged();
  }

  /** Where this chat keeps what outlives a reload: `storage-key`, else one per element id. */
  #key(what: 'pending' | 'session'): string {
    const base = this.getAttribute('storage-key') ?? `inpage-agent-chat${this.id ? `:${this.id}` : ''}`;
    return `${base}:${what}`;
  }

  #$<T extends Element = HTMLElement>(selector: string): T {
    return this.#root.querySelector<T>(selector)!;
  }
}

let sheet: CSSStyleSheet | undefined;
function chatSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CHAT_CSS);
  }
  return sheet;
}

/** Whether two lists hold the same events, in the same order. */
function sameEvents(a: AgentEvent[], b: AgentEvent[]): boolean {
  return a.length === b.length && a.every((event, i) => event.id === b[i]!.id);
}

function asError(error: unknown): { code?: string; message: string } {
  if (error && typeof error === 'object' && 'message' in error)
    return { code: (error as { code?: string }).code, message: String((error as { message: unknown }).message) };
  return { message: String(error) };
}
