import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * A secret is `sk_strata_<id>_<secret>`: the id (8 random bytes, 16 hex) finds the key without
 * comparing secrets one by one, and the secret (32 random bytes, base64url) proves it. Only
 * sha256(secret) is stored. A slow password hash (scrypt, argon2) exists to make guessing a
 * low-entropy password from its hash expensive; a secret of 256 random bits cannot be guessed
 * from its sha256 however fast the hash is, so the slow hash would only cost every request time.
 */

const PREFIX = 'sk_strata_';
const SECRET_PATTERN = /^sk_strata_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** The parts of a presented secret. */
export interface KeySecret {
  id: string;
  /** The random part, which alone is hashed and compared. */
  secret: string;
}

/** A new key id (16 hex characters). */
export function newKeyId(): string {
  return randomBytes(8).toString('hex');
}

/** A new random part: 32 bytes, base64url (43 characters). */
export function newSecretPart(): string {
  return randomBytes(32).toString('base64url');
}

/** The whole secret a client sends: `sk_strata_<id>_<secret>`. */
export function formatKeySecret(id: string, secret: string): string {
  return `${PREFIX}${id}_${secret}`;
}

/** The id and random part of a presented secret, or null when it does not have the format a store issues. */
export function parseKeySecret(presented: string): KeySecret | null {
  const parts = SECRET_PATTERN.exec(presented);
  return parts ? { id: parts[1] as string, secret: parts[2] as string } : null;
}

/** sha256 of the random part, hex: what a store keeps. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A hash no secret has, compared against when the id is unknown so that an unknown id costs what a known one does. */
export const UNKNOWN_KEY_HASH = '0'.repeat(64);

/**
 * Whether `secret` hashes to `storedHash`. Both sides are 32-byte digests, so the comparison
 * (timingSafeEqual) takes the same time whatever the secret and however much of it matches.
 */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = createHash('sha256').update(secret, 'utf8').digest();
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
