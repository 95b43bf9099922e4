/** What a page (or a test) chooses for the scripted engine: turns written in advance, no model. */
import type { ModelProgress } from '../../engine';
import type { ToolFormatName } from '../../formats/tool-format-name';

/** A scripted turn: what the model "says" in one step. */
export type ScriptedTurn =
  | { text?: string; toolCalls?: { name: string; args: unknown; id?: string }[]; delayMs?: number }
  | { raw: string; delayMs?: number };

export type ScriptedModelOptions = {
  engine: 'scripted';
  turns: ScriptedTurn[];
  contextWindow?: number;
  /** The format raw turns are told to write when a call cannot be read (default 'generic-json'). */
  toolFormat?: ToolFormatName;
  onProgress?: (progress: ModelProgress) => void;
};
