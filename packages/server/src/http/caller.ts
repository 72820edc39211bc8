import type { Scope } from '../keys/api-key.js';

/** Who sends a request: the key it carries (or open mode), as the routes check it. */
export interface Caller {
  /** The key's id, or `open` in open mode; part of the message ids an Idempotency-Key derives. */
  keyId: string;
  namespace: string;
  match: 'exact' | 'prefix';
  scopes: readonly Scope[];
  /** Open mode (no key store): every namespace, every scope, and a namespace may be omitted as in process. */
  open: boolean;
}

/** The caller of a server without keys: every namespace (prefix ''), every scope. */
export const OPEN_CALLER: Caller = Object.freeze({ keyId: 'open', namespace: '', match: 'prefix', scopes: Object.freeze(['read', 'write', 'forget', 'admin'] as Scope[]), open: true });

/** The Hono environment of the server's routes: `c.var.caller` is set by authentication, `c.var.body` by the JSON body reader. */
export interface ServerEnv {
  Variables: { caller: Caller; body: unknown };
}

/** Whether the caller's key reaches `namespace`: equal to its namespace, or starting with it for a prefix key. */
export function reaches(caller: Caller, namespace: string): boolean {
  return caller.match === 'exact' ? namespace === caller.namespace : namespace.startsWith(caller.namespace);
}

/** Whether the caller holds `scope` (admin holds every scope). */
export function holds(caller: Caller, scope: Scope): boolean {
  return caller.scopes.includes(scope) || caller.scopes.includes('admin');
}
