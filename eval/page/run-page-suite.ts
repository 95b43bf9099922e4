/**
 * A page-suite run: every conversation through every arm, one at a time (few
 * cores, one model per arm), each request's result yielded as it is judged.
 * Each arm has one agent for the run (its model loads once) with the demo's
 * instructions and tools and the arm's own agent options; each conversation
 * is a new session of it (agent.openSession), on a fresh page.
 */
import { createAgent, type Agent, type ModelOptions } from '../../src/index';
import { PAGE_INSTRUCTIONS, pageTools } from '../../demo/app/page-tools';
import { describeModel, isUnavailable, type Arm, type ArmName, type EvalModel } from '../arms/arm';
import { armAgentOptions, type ArmAgentOptions } from '../arms/arm-agent-options';
import { unavailableArms } from '../run/run-eval';
import { ApprovalDesk } from './approval-desk';
import type { Conversation } from './expectation';
import type { PageResult } from './page-result';
import { runConversation } from './run-conversation';

export interface PageSuitePlan {
  conversations: readonly Conversation[];
  arms: readonly Arm[];
  model: EvalModel;
  /** Request and arm pairs (`<id> <arm>`) a resumed run judged: a conversation all of whose requests were is not asked again. */
  judged?: ReadonlySet<string>;
}

export interface PageSuiteHooks {
  signal?: AbortSignal;
  /** Before each request of each arm: which, and how far the run is. */
  onRequest?: (id: string, arm: Arm, index: number, total: number) => void;
}

interface ArmAgent {
  agent: Agent;
  desk: ApprovalDesk;
  startSeconds: number;
}

export async function* runPageSuite(plan: PageSuitePlan, hooks: PageSuiteHooks = {}): AsyncGenerator<PageResult> {
  if (plan.model.kind === 'mechanics')
    throw new Error(
      'The page suite needs a model (--model=<file>.gguf or a web-llm id); its mechanics are tested on the scripted engine in test/eval/page/.',
    );
  const refused = unavailableArms(plan.arms, plan.model);
  if (refused.length) throw new Error(`These arms cannot run ${describeModel(plan.model)}:\n${refused.join('\n')}`);
  const pending = (conversation: Conversation, arm: Arm) =>
    conversation.requests.some((_, i) => !plan.judged?.has(`${conversation.id}/${i + 1} ${arm.name}`));
  const total = plan.conversations.reduce(
    (sum, conversation) =>
      sum + plan.arms.filter((arm) => pending(conversation, arm)).length * conversation.requests.length,
    0,
  );
  const agents = new Map<ArmName, Promise<ArmAgent>>();
  let index = 0;
  try {
    for (const conversation of plan.conversations) {
      for (const arm of plan.arms.filter((candidate) => pending(conversation, candidate))) {
        if (hooks.signal?.aborted) return;
        if (!agents.has(arm.name)) agents.set(arm.name, startArmAgent(arm, plan.model, hooks.signal));
        const live = await agents.get(arm.name)!;
        await live.agent.openSession();
        const first = index;
        yield* runConversation({
          agent: live.agent,
          desk: live.desk,
          conversation,
          arm: arm.name,
          modelLabel: describeModel(plan.model),
          startSeconds: live.startSeconds,
          signal: hooks.signal,
          onRequest: (i) => hooks.onRequest?.(`${conversation.id}/${i + 1}`, arm, (index = first + i), total),
        });
        index = first + conversation.requests.length;
        live.startSeconds = 0;
      }
    }
  } finally {
    await Promise.all(
      [...agents.values()].map((live) => live.then(({ agent }) => agent.close()).catch(() => undefined)),
    );
  }
}

async function startArmAgent(arm: Arm, model: EvalModel, signal?: AbortSignal): Promise<ArmAgent> {
  const options = arm.modelFor(model);
  if (isUnavailable(options)) throw new Error(`${arm.name} cannot run ${describeModel(model)}: ${options.unavailable}`);
  const t0 = performance.now();
  const live = await openPageAgent(options, armAgentOptions(arm.name), signal);
  return { ...live, startSeconds: (performance.now() - t0) / 1000 };
}

/** An agent as the demo's page makes one (its instructions and tools), with an arm's options and the suite's visitor at the approval dialog. */
export async function openPageAgent(
  model: ModelOptions,
  options: ArmAgentOptions = {},
  signal?: AbortSignal,
): Promise<{ agent: Agent; desk: ApprovalDesk }> {
  const desk = new ApprovalDesk();
  const agent = await createAgent({
    ...options,
    model,
    instructions: PAGE_INSTRUCTIONS,
    tools: pageTools,
    storage: 'memory',
    onApproval: desk.decide,
    signal,
  });
  return { agent, desk };
}
