import { randomBytes } from 'node:crypto';
import type { KeyStore, Scope } from '../../src/index.js';

const ALL: Scope[] = ['read', 'write', 'forget', 'admin'];

/** Secrets of the keys the security tests use, by what they are for. */
export interface TenantKeys {
  /** acme, exact, every scope. */
  acmeAdmin: string;
  /** acme, every scope, then revoked. */
  acmeRevoked: string;
  /** acme's admin key id with a secret that is not its own. */
  acmeWrongSecret: string;
  /** acme keys with every scope but the one named. */
  acmeWithout: Record<Scope, string>;
  /** globex, exact, every scope. */
  globexAdmin: string;
  /** globex, exact, read only: reach is checked before scope. */
  globexRead: string;
  /** prefix 'team/', read write forget: reaches team/a and team/b, not teamx. */
  team: string;
}

/** Creates the keys of {@link TenantKeys} in `store` (and revokes the revoked one). */
export async function createTenantKeys(store: KeyStore): Promise<TenantKeys> {
  const make = async (namespace: string, scopes: Scope[], match: 'exact' | 'prefix' = 'exact') => (await store.create({ namespace, scopes, match, name: `${namespace} ${scopes.join('+')}` })).secret;
  const without = async (scope: Scope) =>
    make(
      'acme',
      ALL.filter((s) => s !== scope && s !== 'admin'),
    );
  const acmeAdmin = await make('acme', ALL);
  const revoked = await store.create({ namespace: 'acme', scopes: ALL, name: 'revoked' });
  await store.revoke(revoked.key.id);
  const acmeWithout: Record<Scope, string> = {
    read: await without('read'),
    write: await without('write'),
    forget: await without('forget'),
    admin: await make('acme', ['read', 'write', 'forget']),
  };
  return {
    acmeAdmin,
    acmeRevoked: revoked.secret,
    // the key id part is `sk_strata_` + 16 hex + `_`; the rest is the secret
    acmeWrongSecret: `${acmeAdmin.slice(0, 'sk_strata_'.length + 17)}${randomBytes(32).toString('base64url')}`,
    acmeWithout,
    globexAdmin: await make('globex', ALL),
    globexRead: await make('globex', ['read']),
    team: await make('team/', ['read', 'write', 'forget'], 'prefix'),
  };
}
