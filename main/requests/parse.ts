// How a route reads a zod-validated request: the schema's first issue becomes the 400 "<param> <message>".
import { z } from 'zod';
import { HttpError } from '../util/errors.js';

/** An integer query parameter in [min, max], coerced from its text; every failure says `msg`. */
export function intParam(msg: string, min: number, max?: number) {
  let s = z.coerce.number({ error: msg }).int({ error: msg }).min(min, { error: msg });
  if (max !== undefined) s = s.max(max, { error: msg });
  return s;
}

/** Parses query/body with a schema; the first issue becomes "<param> <message>". */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {}, { reportInput: true });
  if (r.success) return r.data;
  const iss = r.error.issues[0]!;
  const path = iss.path.map(String).join('.');
  const missing =
    iss.code === 'invalid_type' && iss.path.length > 0 && (iss as { input?: unknown }).input === undefined;
  const msg = missing ? 'is required' : iss.message;
  throw new HttpError(400, path ? `${path} ${msg}` : msg);
}
