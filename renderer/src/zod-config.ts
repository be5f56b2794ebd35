// Imported first by main.ts, before any schema is built: the page runs under a
// Content-Security-Policy without 'unsafe-eval', and zod's JIT otherwise probes eval
// (new Function) when a schema is constructed, which the browser reports as a violation.
import { z } from 'zod';

z.config({ jitless: true });
