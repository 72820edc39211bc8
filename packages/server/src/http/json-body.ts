import { StrataError } from '@strata/core';
import type { Context, MiddlewareHandler } from 'hono';
import type { ServerEnv } from './caller.js';

/** Deeper than any record the memory accepts (metadata nests at most 32 levels, inside a bundle). */
const MAX_DEPTH = 64;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const HINT = 'Send the body as UTF-8 JSON with content-type application/json, as the OpenAPI document (/openapi.json) describes.';

const invalid = (detail: string) => new StrataError('INVALID_INPUT', detail, { hint: HINT });

/** Throws unless `header` is a JSON media type (`application/json`, `application/*+json`) in UTF-8. */
function checkContentType(header: string | undefined): void {
  const [essence = '', ...params] = (header ?? '').split(';');
  if (!/^application\/([\w.-]+\+)?json$/i.test(essence.trim())) throw invalid(`content-type must be application/json (got ${JSON.stringify(header ?? '')})`);
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((part) => part.trim().toLowerCase());
    if (name === 'charset' && value.replaceAll('"', '') !== 'utf-8' && value.replaceAll('"', '') !== 'utf8') throw invalid(`the body must be UTF-8 (content-type says charset=${value})`);
  }
}

/** Whether brackets outside strings nest deeper than `max` (checked before parsing, so nothing recurses on it). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return false;
}

function parseBody(bytes: Uint8Array): { text: string; body: unknown } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw new StrataError('INVALID_INPUT', 'the request body is not valid UTF-8', { hint: HINT, cause: error });
  }
  if (nestsDeeperThan(text, MAX_DEPTH)) throw invalid(`the request body nests deeper than ${MAX_DEPTH} levels`);
  try {
    return { text, body: JSON.parse(text) };
  } catch (error) {
    throw new StrataError('INVALID_INPUT', `the request body is not valid JSON (${error instanceof Error ? error.message : 'unreadable'})`, { hint: HINT, cause: error });
  }
}

/**
 * Reads a JSON body before the route's validators do: a wrong content type, bad UTF-8 (which
 * `Request.text()` would silently replace), malformed or too deeply nested JSON are
 * INVALID_INPUT 400. The parsed body, as sent, is `c.var.body`; an empty one is `empty` when
 * the route allows it, else INVALID_INPUT.
 */
export function jsonBody(options: { empty?: unknown } = {}): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength === 0) {
      if (options.empty === undefined) throw invalid('the request body is empty');
      c.set('body', options.empty);
      // the route's JSON validator reads the body again (Hono caches the promise of each reading)
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(JSON.stringify(options.empty));
      return next();
    }
    checkContentType(c.req.header('content-type'));
    const { text, body } = parseBody(bytes);
    c.set('body', body);
    // the route's JSON validator reads the text from here instead of turning the bytes into a Response to decode them again
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    await next();
  };
}

/**
 * The body as sent, once the route's schema has validated it (`validated` gives its type). The
 * memory gets this rather than zod's copy, which would drop a `__proto__` key that the memory
 * must see to refuse.
 */
export function sentBody<T>(c: Context<ServerEnv>, _validated: T): T {
  return c.var.body as T;
}
