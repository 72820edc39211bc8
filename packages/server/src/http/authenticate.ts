import { StrataError } from '@strata/core';
import type { MiddlewareHandler } from 'hono';
import type { KeyStore } from '../keys/api-key.js';
import { OPEN_CALLER, type ServerEnv } from './caller.js';

/** Longer than any secret a key store issues: not worth a lookup. */
const MAX_SECRET = 512;

/** The token of `Authorization: Bearer <token>`, or undefined when the header is absent or of another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Sets `c.var.caller` from the Bearer key, or answers 401 (with `WWW-Authenticate: Bearer`) when
 * the key is missing, unknown, malformed or revoked. Without a key store (open mode) every
 * request is the open caller.
 */
export function authenticate(keys: KeyStore | undefined): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (!keys) {
      c.set('caller', OPEN_CALLER);
      return next();
    }
    const token = bearerToken(c.req.header('authorization'));
    const key = token === undefined || token.length > MAX_SECRET ? null : await keys.verify(token);
    if (!key) {
      throw new StrataError('UNAUTHORIZED', token === undefined ? 'this request carries no API key' : 'the API key is not valid (unknown, malformed or revoked)', {
        hint: 'Send Authorization: Bearer <secret> with a key from `strata keys create`.',
      });
    }
    c.set('caller', { keyId: key.id, namespace: key.namespace, match: key.match, scopes: [...key.scopes], open: false });
    return next();
  };
}
