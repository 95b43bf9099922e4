/**
 * The `z` every file in src/tools uses and the package re-exports.
 *
 * Zod 4 compiles object parsers with `new Function` unless told not to, and
 * merely probing for that reports a violation on a page whose
 * Content-Security-Policy forbids 'unsafe-eval'. This runtime is meant for
 * such pages, so zod runs interpreted (jitless) everywhere we touch it.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
