/**
 * What a reply claims that no call of its run performed: each claim of
 * find-claims.ts whose tools did not run without an error in this run (a
 * claim that names no action, "Done.", needs any action that ran). A read
 * (a readOnly tool) performs no action, so it answers no claim of one.
 */
import type { AgentEvent } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import { findClaims, type Claim } from './find-claims';

export function unperformedClaims(
  reply: string,
  tools: readonly ToolDeclaration[],
  run: readonly AgentEvent[],
): Claim[] {
  const claims = findClaims(reply, tools);
  if (!claims.length) return [];
  const performed = performedActions(run, tools);
  return claims.filter((claim) =>
    claim.tools.length ? !claim.tools.some((tool) => performed.has(tool)) : performed.size === 0,
  );
}

/** The tools that changed something in this run: answered without an error, and not read-only. */
function performedActions(run: readonly AgentEvent[], tools: readonly ToolDeclaration[]): Set<string> {
  const readOnly = new Set(tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name));
  const performed = new Set<string>();
  for (const event of run)
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part && !part.functionResponse.error && !readOnly.has(part.functionResponse.name))
        performed.add(part.functionResponse.name);
  return performed;
}
