import { StrataError } from '@strata/core';
import type { ZodError } from 'zod';

const PARTS: Record<string, string> = { json: 'body', query: 'query', param: 'path', header: 'header', cookie: 'cookie', form: 'body' };

/** `messages[0].content` from a zod issue path. */
function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
}

/** The INVALID_INPUT of a request part that its route's schema rejected, naming each field (at most 5). */
export function invalidRequest(target: string, error: ZodError): StrataError {
  const part = PARTS[target] ?? target;
  const issues = error.issues.slice(0, 5).map((issue) => `${pathText(issue.path) || '(the whole value)'}: ${issue.message}`);
  const more = error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : '';
  return new StrataError('INVALID_INPUT', `the request ${part} is invalid: ${issues.join('; ')}${more}`, {
    hint: 'Send what the OpenAPI document (/openapi.json) describes for this route.',
    cause: error,
  });
}

/** The `defaultHook` of the server's OpenAPIHono: a failed validation throws INVALID_INPUT (a 400 problem). */
export function validationHook(result: { target: string; success: boolean; error?: ZodError }): void {
  if (!result.success && result.error) throw invalidRequest(result.target, result.error);
}
