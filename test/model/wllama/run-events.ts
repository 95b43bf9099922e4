/** For the tests of a llama.cpp worker that dies: a run's events with a hang check, and the messages a session stored. */
import type { Agent, AgentEvent } from '../../../src/index';

/** The run's events, failing the test if the run is still going after `ms` (a hang check, not a speed check). */
export async function eventsOf(run: AsyncIterable<AgentEvent>, onEvent: (event: AgentEvent) => void, ms = 60_000) {
  const events: AgentEvent[] = [];
  const collect = (async () => {
    for await (const event of run) {
      events.push(event);
      onEvent(event);
    }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    collect,
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the run still hangs after ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
  return events;
}

export async function storedTexts(agent: Agent): Promise<string[]> {
  const { events } = (await agent.sessions.get(agent.sessionId))!;
  return events.flatMap((event) =>
    event.author === 'user' ? (event.content?.parts ?? []).flatMap((part) => ('text' in part ? [part.text] : [])) : [],
  );
}
