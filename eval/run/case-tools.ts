/**
 * A case's functions as the page's tools, declared with the JSON Schema of
 * BFCL's types (bfcl/type-map.ts) under their tool names. Each records the
 * call it ran and returns a plain result: a run of one step needs no real
 * effect, and a call that ran passed every check of the runtime (readable,
 * declared, valid under its schema).
 */
import type { Tool } from '../../src/tools/define-tool';
import { fromMCPTool } from '../../src/tools/mcp';
import { parametersSchema } from '../bfcl/type-map';
import { toolName } from '../bfcl/tool-name';
import type { BfclCase, ModelCall } from '../bfcl/types';

export interface CaseTools {
  tools: Tool[];
  /** The calls that ran, in the order they ran. */
  ran: ModelCall[];
}

export function caseTools(testCase: BfclCase): CaseTools {
  const ran: ModelCall[] = [];
  const tools = testCase.functions.map((fn) =>
    fromMCPTool(
      {
        name: fn.name,
        description: fn.description ?? '',
        inputSchema: parametersSchema(fn),
        // Read-only: no approval asked, and the calls of a step run together.
        annotations: { readOnlyHint: true },
      },
      (args) => {
        ran.push({ name: toolName(fn.name), args });
        return { ok: true };
      },
      { name: toolName(fn.name) },
    ),
  );
  return { tools, ran };
}
