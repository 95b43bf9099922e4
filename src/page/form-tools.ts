/**
 * importFormTools: the page's forms marked the WebMCP way (`<form toolname
 * tooldescription>`, `toolparamdescription` on fields) as tools of ours, read
 * from the DOM itself, so they work in every browser, with or without a
 * WebMCP registry. A call fills the form and submits it (form-submit.ts);
 * it asks the person first unless the form carries WebMCP's own
 * `toolautosubmit` (the agent may submit without the person checking).
 *
 * With `agent`, the tools are registered on it and kept in step with the
 * page: a marked form added later (or marked later) becomes a tool, a form
 * removed (or unmarked) takes its tool away, and a form whose fields change
 * gets its tool again with the new schema, until `signal` aborts.
 *
 * A browser whose WebMCP registry reads marked forms itself (Chromium 156
 * behind --enable-features=WebMCP) lists the same forms there; a page that
 * also imports the registry's tools leaves them out by name
 * (`importWebMCPTools(undefined, { skip: tools.map((t) => t.name) })`).
 */
import { AgentError } from '../errors';
import type { Tool } from '../tools/define-tool';
import { fromMCPTool } from '../tools/mcp';
import type { Agent } from './agent';
import { describeForm, type FormDescription } from './form-schema';
import { fillAndSubmit } from './form-submit';

export interface FormToolsOptions {
  /**
   * Registers the tools on this agent (those it has already, by name, are left: createAgent({ tools:
   * importFormTools() }) then importFormTools(document, { agent }) registers nothing twice), and keeps them
   * in step with the page's forms.
   */
  agent?: Pick<Agent, 'registerTool' | 'unregisterTool' | 'declaredTools'>;
  /** Stops keeping them in step (the tools stay registered). */
  signal?: AbortSignal;
}

/** The attributes whose change can change a form's tool. */
const WATCHED = [
  'toolname',
  'tooldescription',
  'toolautosubmit',
  'toolparamdescription',
  'toolparamtitle',
  'name',
  'type',
  'required',
  'min',
  'max',
  'step',
  'minlength',
  'maxlength',
  'pattern',
  'disabled',
  'readonly',
  'multiple',
  'value',
  'aria-label',
];

export function importFormTools(root: ParentNode = document, options: FormToolsOptions = {}): Tool[] {
  const current = new Map<HTMLFormElement, { signature: string; tool: Tool }>();
  const read = () => {
    const next = new Map<HTMLFormElement, { signature: string; tool: Tool }>();
    const names = new Set<string>();
    for (const form of markedForms(root)) {
      const described = describeForm(form);
      if (!described || names.has(described.name)) continue;
      names.add(described.name);
      const signature = JSON.stringify(described, (key, value) => (key === 'fields' ? undefined : value));
      const before = current.get(form);
      next.set(
        form,
        before && before.signature === signature ? before : { signature, tool: formTool(form, described) },
      );
    }
    return next;
  };
  for (const [form, entry] of read()) current.set(form, entry);
  const tools = [...current.values()].map((entry) => entry.tool);
  const { agent, signal } = options;
  if (!agent || signal?.aborted) return tools;

  const has = new Set(agent.declaredTools().map((tool) => tool.name));
  for (const tool of tools) if (!has.has(tool.name)) void agent.registerTool(tool).catch(() => undefined);
  // Changes come in bursts (a framework renders a form field by field): one reading per frame at most.
  let pending = false;
  const update = () => {
    pending = false;
    if (signal?.aborted) return;
    const next = read();
    for (const [form, entry] of current) {
      const kept = next.get(form);
      if (kept === entry) continue;
      void agent.unregisterTool(entry.tool.name).catch(() => undefined);
    }
    for (const [form, entry] of next) {
      if (current.get(form) === entry) continue;
      void agent.registerTool(entry.tool).catch(() => undefined);
    }
    current.clear();
    for (const [form, entry] of next) current.set(form, entry);
  };
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    queueMicrotask(update);
  });
  observer.observe(root as Node, { subtree: true, childList: true, attributes: true, attributeFilter: WATCHED });
  signal?.addEventListener('abort', () => observer.disconnect(), { once: true });
  return tools;
}

function markedForms(root: ParentNode): HTMLFormElement[] {
  const found = Array.from(root.querySelectorAll<HTMLFormElement>('form[toolname][tooldescription]'));
  if (root instanceof HTMLFormElement && root.matches('[toolname][tooldescription]')) found.unshift(root);
  return found;
}

function formTool(form: HTMLFormElement, described: FormDescription): Tool {
  return fromMCPTool(
    {
      name: described.name,
      title: described.displayName,
      description: described.description,
      inputSchema: described.inputSchema,
      // A form changes something and is sent once: not read-only, not destructive (approval is asked below).
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => {
      if (!form.isConnected)
        throw new AgentError('tool-failed', `The form of ${described.name} is no longer on the page.`);
      return fillAndSubmit(form, described, args);
    },
    { needsApproval: !described.autoSubmit },
  );
}
