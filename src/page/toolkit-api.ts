/** agent.toolkit: the toolkit graph service, answered by the worker that holds the graph. */
export const TOOLKIT_METHODS = [
  'addAction',
  'addTool',
  'addToolGroup',
  'getAction',
  'removeTool',
  'removeAction',
  'setScore',
  'recommend',
  'recommendToolsActions',
  'render',
  'toMermaid',
  'learn',
  'toJSON',
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolkitApi = Record<(typeof TOOLKIT_METHODS)[number], (...args: any[]) => Promise<any>>;
