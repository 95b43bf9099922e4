/** inpage-agent/extension: the bridge for browser extensions (Manifest V3), with the page API beside it. */
export { acceptContentScriptTools, type AcceptOptions, type ToolRegistry } from './host';
export { exposePageTools, type ExposeOptions, type PageToolsConnection, type PageToolsStatus } from './content-script';
export { portEndpoint } from './port-endpoint';
export { createAgent, defineTool, z, AgentError } from '../index';
