/**
 * Tool results as Qwen's templates write them (Hermes, Qwen2.5, Qwen3,
 * Qwen3.5, SmolLM2): each in <tool_response> tags inside one user turn. A file
 * of its own, because the families that share it read calls differently.
 */
import type { ToolResultText } from './tool-format';

export function writeToolResponses(results: readonly ToolResultText[]): string {
  return results.map((result) => `<tool_response>\n${result.content}\n</tool_response>`).join('\n');
}
