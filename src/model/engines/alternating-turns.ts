/**
 * A conversation whose user and assistant turns alternate. A family whose
 * template has no tool role reads a step's tool results as a user turn, and
 * such templates often allow nothing but alternating turns: Gemma 2's and 3's
 * raise "Conversation roles must alternate user/assistant/user/assistant/...".
 * Yet results sit next to a user turn whenever a run ended on them (max-steps
 * after a call, a stop during a tool, a request for approval that a new
 * message superseded) and the person wrote again, or when a session written
 * under another model is read by this one. So two turns of one role in a row
 * become one, their texts a paragraph apart: the model reads everything, in
 * order, in the shape it was trained on. A run never ends a step on such a
 * pair (the model would have answered in between), so no prompt that was
 * read before changes, and the prefix cache keeps it.
 */
export function alternatingTurns<T extends { role: string; content: string }>(turns: readonly T[]): T[] {
  const out: T[] = [];
  for (const turn of turns) {
    const last = out.at(-1);
    if (last && last.role === turn.role && (turn.role === 'user' || turn.role === 'assistant'))
      out[out.length - 1] = { ...last, content: `${last.content}\n\n${turn.content}` };
    else out.push(turn);
  }
  return out;
}
