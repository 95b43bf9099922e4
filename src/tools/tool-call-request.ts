/** One call of a page tool, as the loop asks the page to run it (a plain value: it crosses to the page). */
export interface ToolCallRequest {
  /** The runtime's id of the call (never the model's). */
  callId: string;
  name: string;
  /** The arguments as the model wrote them (or as a beforeTool callback replaced them). */
  args: unknown;
  /**
   * Set when a person approved this call: the arguments the tool's own schema
   * made of `args` then. The page parses `args` again and runs the call only
   * if it gets exactly these, so what runs is what was approved.
   */
  approvedArgs?: unknown;
  sessionId: string;
  invocationId: string;
  agentName: string;
  state: Record<string, unknown>;
}
