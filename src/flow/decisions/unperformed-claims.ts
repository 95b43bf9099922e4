/**
 * What a reply claims that no call performed: each claim of find-claims.ts
 * whose tools did not run without an error in `events` (its run's, or the
 * session's for a question about what was done; a claim that names no
 * action, "Done.", needs any action that ran; a thing sent, which no tool
 * does, has nothing to back it). A read (a readOnly tool)
 * performs no action, so it answers no claim of one.
 */
import type { AgentEvent } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import { findClaims, type Claim } from './find-claims';

export function unperformedClaims(
  reply: string,
  tools: readonly ToolDeclaration[],
  events: readonly AgentEvent[],
): Claim[] {
  const claims = findClaims(reply, tools);
  if (!claims.length) return [];
  const { ran, performed } = answeredCalls(events, tools);
  return claims.filter((claim) => {
    // A thing that left the page, which no tool does: nothing backs it.
    if (claim.beyond) return true;
    // "The tool has found …" says a tool ran, whatever it did: a read backs it.
    const backing = claim.ran ? ran : performed;
    return claim.tools.length ? !claim.tools.some((tool) => backing.has(tool)) : backing.size === 0;
  });
}

/**
 * The tools answered without an error in `events`: every one (`ran`, reads included), and those that changed
 * something (`performed`: not read-only).
 */
function answeredCalls(
  events: readonly AgentEvent[],
  tools: readonly ToolDeclaration[],
): { ran: Set<string>; performed: Set<string> } {
  const readOnly = new Set(tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name));
  const ran = new Set<string>();
  const performed = new Set<string>();
  for (const event of events)
    for (const part of event.content?.parts ?? []) {
      if (!('functionResponse' in part) || part.functionResponse.error) continue;
      ran.add(part.functionResponse.name);
      if (!readOnly.has(part.functionResponse.name)) performed.add(part.functionResponse.name);
    }
  return { ran, performed };
}
