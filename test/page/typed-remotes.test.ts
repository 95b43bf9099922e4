/**
 * agent.toolkit and agent.model reach services the worker holds. They are
 * comlink proxies typed from those services, so a page gets every method
 * with its arguments and a promise of its result, and a typo does not
 * compile. `npm test` type-checks before it runs, so these assertions hold.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { Agent } from '../../src/index';
import type { Action, ToolGroup, ToolkitJSON } from '../../src/toolkit/graph';
import type { Connection } from '../../src/toolkit/toolkit';
import { remoteService } from '../../src/page/remote-proxy';

type Toolkit = Agent['toolkit'];

describe('typed remotes', () => {
  test('every toolkit method has its own arguments and a promise of its own result', () => {
    expectTypeOf<Parameters<Toolkit['addAction']>>().toEqualTypeOf<[Action, Connection[]?, Connection[]?]>();
    expectTypeOf<Parameters<Toolkit['addTool']>>().toEqualTypeOf<[string, Connection[], string?]>();
    expectTypeOf<Parameters<Toolkit['addToolGroup']>>().toEqualTypeOf<
      [ToolGroup, (string | { name: string; description?: string })[], Connection[]]
    >();
    expectTypeOf<ReturnType<Toolkit['getAction']>>().toEqualTypeOf<Promise<Action>>();
    expectTypeOf<ReturnType<Toolkit['recommend']>>().toEqualTypeOf<Promise<ToolkitJSON>>();
    expectTypeOf<ReturnType<Toolkit['recommendToolsActions']>>().toEqualTypeOf<
      Promise<{ tools: string[]; actions: Action[] }>
    >();
    expectTypeOf<ReturnType<Toolkit['render']>>().toEqualTypeOf<Promise<string>>();
    expectTypeOf<ReturnType<Toolkit['learn']>>().toEqualTypeOf<Promise<{ changed: number }>>();
    expectTypeOf<Awaited<ReturnType<Agent['model']['isCached']>>>().toEqualTypeOf<boolean>();
    // @ts-expect-error: the toolkit has no such method; before, any name type-checked
    expectTypeOf<Toolkit['toolkitCall']>().toBeFunction();
  });

  test('the handle asks for the current service on every call and is no thenable', async () => {
    let generation = 0;
    const supervisor = {
      send: async <T>(fn: (connection: never) => Promise<T>) => {
        generation += 1;
        const current = generation;
        const connection = { service: () => ({ toMermaid: async () => `graph from worker ${current}` }) };
        return fn(connection as never);
      },
    };
    const handle = remoteService(supervisor as never, 'toolkit');
    expect(await handle.toMermaid()).toBe('graph from worker 1');
    // A restarted worker: the next call reaches the new one.
    expect(await handle.toMermaid()).toBe('graph from worker 2');
    expect((handle as unknown as { then?: unknown }).then).toBeUndefined();
    expect(await Promise.resolve(handle)).toBe(handle);
  });
});
