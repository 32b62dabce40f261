/**
 * zod, as the web app loads it: web/vite.config.ts points every `import … from 'zod'` of the app (and of
 * functions/domain, whose schemas the forms share) here, so this module runs before any schema is built.
 *
 * zod v4 tests once whether it may compile its parsers with `new Function` (its JIT) when it builds an
 * object schema; the portal's CSP forbids eval, so that test is refused and logged as a CSP error in the
 * console. jitless skips the test and the JIT. zod still loads only with the pages that validate.
 */
import * as z from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
