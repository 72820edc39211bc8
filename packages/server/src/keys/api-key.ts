/** What a key may do: read (GET routes, context, search, export, status), write, forget, admin (everything in its reach, plus /metrics). */
export type Scope = 'read' | 'write' | 'forget' | 'admin';

/** Every scope, in the order they are shown. */
export const SCOPES: readonly Scope[] = Object.freeze(['read', 'write', 'forget', 'admin'] as const);

/**
 * An API key as a {@link KeyStore} hands it out: never its secret, nor the secret's hash. It
 * reaches `namespace` exactly, or every namespace that starts with it (`match: 'prefix'`).
 */
export interface ApiKey {
  /** 16 hex characters, also the middle part of the secret (`sk_strata_<id>_<secret>`). */
  id: string;
  namespace: string;
  match: 'exact' | 'prefix';
  /** At least one; admin holds every other scope too. */
  scopes: Scope[];
  /** A label for people (who holds the key, what for). */
  name?: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms; a revoked key verifies as null from then on. */
  revokedAt?: number;
}

/** What {@link KeyStore.create} takes. */
export interface NewApiKey {
  namespace: string;
  /** @defaultValue 'exact' */
  match?: 'exact' | 'prefix';
  scopes: Scope[];
  name?: string;
}

/**
 * Where keys live. A server asks it about every request that carries a key; the CLI (or an
 * admin tool) creates, lists and revokes them.
 */
export interface KeyStore {
  /**
   * The key of the whole secret a client presented (`sk_strata_<id>_<secret>`), or null when
   * the secret is malformed, unknown, does not match its id, or its key is revoked. The secret
   * is compared in constant time. Never throws for a bad secret; throws StrataError
   * (CONFIG_INVALID, BACKEND_UNAVAILABLE) when the keys cannot be read.
   */
  verify(secret: string): Promise<ApiKey | null>;
  /**
   * A new key and its secret, which is returned this once and stored only as a hash.
   * Throws StrataError INVALID_INPUT for a bad namespace, name or scope list.
   */
  create(input: NewApiKey): Promise<{ key: ApiKey; secret: string }>;
  /** Every key, revoked ones included, oldest first; without secrets or hashes. */
  list(): Promise<ApiKey[]>;
  /**
   * Revokes a key for good and returns it. Revoking a revoked key keeps its first revocation
   * time. Throws StrataError INVALID_INPUT for an id that is not 16 hex characters, NOT_FOUND
   * for an unknown one.
   */
  revoke(id: string): Promise<ApiKey>;
}
