/** The names of the demo's page tools: a call to any other is a call to no tool of the page. */
import { pageTools } from '../../demo/app/page-tools';

export const PAGE_TOOL_NAMES: ReadonlySet<string> = new Set(pageTools.map((tool) => tool.name));
