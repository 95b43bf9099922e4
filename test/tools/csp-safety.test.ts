import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/tools/zod';

const dir = join(__dirname, '../../src/tools');
const sources = readdirSync(dir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, code: stripComments(readFileSync(join(dir, file), 'utf8')) }));

function stripComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

// Pages with Content-Security-Policy "script-src 'self'" forbid eval; the tools layer must never need it.
describe('src/tools under a strict Content-Security-Policy', () => {
  it('finds the source files', () => {
    expect(sources.map((s) => s.file)).toEqual(
      expect.arrayContaining(['json-schema-validate.ts', 'invoke-tool.ts', 'zod.ts']),
    );
  });

  it.each(sources.map((s) => [s.file, s.code]))('%s has no eval, new Function or string timers', (_, code) => {
    expect(code).not.toMatch(/\beval\s*\(/);
    expect(code).not.toMatch(/new\s+Function\b/);
    expect(code).not.toMatch(/\bFunction\s*\(/);
    expect(code).not.toMatch(/setTimeout\s*\(\s*['"`]/);
  });

  it('imports zod only through ./zod, where it is configured jitless', () => {
    for (const { file, code } of sources) {
      if (file === 'zod.ts') continue;
      expect(code, file).not.toMatch(/from\s+['"]zod(\/[^'"]*)?['"]/);
    }
    expect(z.config().jitless).toBe(true);
  });
});
