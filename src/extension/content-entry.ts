/** The content-script build (a classic script, as content scripts are): window.InpageAgentContent. */
export { exposePageTools } from './content-script';
export { defineTool } from '../tools/define-tool';
export { z } from '../tools/zod';
