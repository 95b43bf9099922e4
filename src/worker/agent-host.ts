/**
 * The worker's side of an agent: init() opens the stores, the engine, the toolkit and the session;
 * the services answer the page (runs, sessions, tools, model, toolkit: services/), which the page
 * reaches by path over the worker's one port (see protocol.ts). What a run does is the flow's
 * (src/flow); this file only connects and exposes.
 */
import { openSessionStore } from '../session/open-store';
import { publishEvent } from '../session/broadcast';
import { readRecent } from '../session/recent-events';
import { checkDeclaration } from '../tools/check-declaration';
import { openSession } from '../flow/open-session';
import type { AgentContext } from '../flow/types';
import type { ToolkitApi } from '../toolkit/toolkit-api';
import { holdLifeline } from '../contract/lifeline';
import type { AgentHostApi, HostConfig, HostInfo, PageApi } from '../contract/protocol';
import { agentContext } from './agent-context';
import { EnginePool } from './engine-pool';
import { needReady, type Ready } from './ready';
import { ModelService } from './services/model';
import { RunsService } from './services/runs';
import { SessionsService } from './services/sessions';
import { ToolsService } from './services/tools';
import { bindToolkit } from './toolkit-binding';

export class AgentHost implements AgentHostApi {
  private ready?: Ready;
  private readonly current = () => needReady(this.ready);
  readonly tools = new ToolsService(this.current);
  readonly runs = new RunsService(this.current);
  readonly sessions = new SessionsService(this.current, (ready, sessionId) => this.contextFor(ready, sessionId));
  readonly model = new ModelService(this.current, this.runs);

  /** The agent's own graph, bound at init(): read when a call arrives, so one before init() fails with 'closed'. */
  get toolkit(): ToolkitApi {
    return this.current().toolkit.toolkit;
  }

  /** `engines` is shared by every host of a SharedWorker, so each tab reuses loaded weights. */
  constructor(private readonly engines: EnginePool = new EnginePool()) {}

  /** Holds a Web Lock for as long as this worker lives (see lifeline.ts). */
  holdLifeline(name: string): Promise<void> {
    return holdLifeline(name);
  }

  async init(config: HostConfig, page: PageApi): Promise<HostInfo> {
    await page.status('starting');
    const { store, notice } = await openSessionStore({
      storage: config.storage,
      dbName: config.dbName,
      appName: config.appName,
    });
    const opened = (config.sessionId ? await readRecent(store, config.sessionId) : undefined) ?? {
      session: await store.create({ id: config.sessionId, appName: config.appName, userId: config.userId }),
      events: [],
    };
    const { session } = opened;
    for (const tool of config.tools) this.tools.declared.set(tool.name, checkDeclaration(tool));

    await page.status('loading-model');
    const { engine, release, reused, inTurn } = await this.engines.acquire(
      config.model,
      (progress) => void page.progress(progress),
    );
    const toolkit = await bindToolkit(config, store);
    const context = this.contextFor({ config, page, store, toolkit, context: { engine } }, session.id);
    await openSession(context, opened, {
      storageNotice: notice,
      emit: (event) => publishEvent(config.dbName, event),
    });
    const info: HostInfo = {
      sessionId: session.id,
      model: engine.info,
      storage: store.kind,
      storageNotice: notice,
      modelShared: reused,
      host: 'SharedWorkerGlobalScope' in self ? 'shared-worker' : 'worker',
    };
    this.ready = {
      config,
      page,
      store,
      context,
      opening: Promise.resolve(),
      releaseEngine: release,
      inTurn,
      info,
      toolkit,
    };
    // In a SharedWorker, a closed tab never says goodbye: its lock's release does (heard before the status is
    // answered, which a tab closed now never does).
    if (config.tabLock) void navigator.locks?.request(config.tabLock, () => this.close()).catch(() => undefined);
    await page.status('ready');
    return info;
  }

  async close(): Promise<void> {
    this.runs.abortAll();
    const ready = this.ready;
    this.ready = undefined;
    if (!ready) return;
    await ready.releaseEngine();
    ready.toolkit.close();
    ready.store.close();
    ready.page.status('closed');
  }

  /** The loop's context for one session of this agent, on the engine it holds. */
  private contextFor(
    parts: Pick<Ready, 'config' | 'page' | 'store' | 'toolkit'> & { context: Pick<AgentContext, 'engine'> },
    sessionId: string,
  ): AgentContext {
    return agentContext({
      config: parts.config,
      sessionId,
      store: parts.store,
      engine: parts.context.engine,
      tools: this.tools.declared,
      page: parts.page,
      selector: parts.toolkit.selector,
      chunkSinks: this.tools.chunkSinks,
    });
  }
}
