import { z } from 'zod';
import { StrataError, type StrataErrorCode } from '../errors/strata-error.js';

/**
 * Parses a value with a zod schema; a failure becomes a StrataError carrying zod's readable
 * report, so every boundary reports bad input the same way.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  hint: string,
  code: Extract<StrataErrorCode, 'INVALID_INPUT' | 'CONFIG_INVALID'> = 'INVALID_INPUT',
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new StrataError(code, `${what} is invalid:\n${z.prettifyError(result.error)}`, {
    hint,
    cause: result.error,
  });
}
