import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { StrataError } from '@strata/core/errors';

const endpoint = z.object({ baseUrl: z.string(), model: z.string(), apiKey: z.string() }).partial().strict();

/** The config file: JSON, every key optional, unknown keys rejected (they are usually typos). */
const fileSchema = z
  .object({
    dataDir: z.string(),
    db: z.string(),
    store: z.string(),
    namespace: z.string(),
    chromaUrl: z.string(),
    redisUrl: z.string(),
    redisPrefix: z.string(),
    encryptionKey: z.string(),
    llm: endpoint.extend({ method: z.string() }).partial().strict(),
    embeddings: endpoint.extend({ dimensions: z.number() }).partial().strict(),
  })
  .partial()
  .strict();

export type FileValues = Record<string, string | number | undefined>;

/**
 * Reads the config file into flat keys (`llm.baseUrl`, ...). A missing default file is no
 * config; a missing file named by --config / STRATA_CONFIG is an error. A relative dataDir
 * or db is resolved against the file's directory.
 */
export function readConfigFile(path: string, isExplicit: boolean): FileValues {
  if (!existsSync(path)) {
    if (!isExplicit) return {};
    throw new StrataError('CONFIG_INVALID', `config file ${path} does not exist`, { hint: 'Pass --config with an existing JSON file, or drop it to use flags and env only.' });
  }
  const parsed = fileSchema.safeParse(parseJson(path));
  if (!parsed.success) {
    throw new StrataError('CONFIG_INVALID', `config file ${path} is invalid:\n${z.prettifyError(parsed.error)}`, {
      hint: 'Keys: dataDir, db, store, namespace, chromaUrl, redisUrl, redisPrefix, encryptionKey, llm { baseUrl, model, apiKey, method }, embeddings { baseUrl, model, apiKey, dimensions }.',
    });
  }
  const { llm, embeddings, dataDir, db, ...rest } = parsed.data;
  return {
    ...rest,
    ...(dataDir === undefined ? {} : { dataDir: isAbsolute(dataDir) ? dataDir : resolve(dirname(path), dataDir) }),
    ...(db === undefined ? {} : { db: isAbsolute(db) ? db : resolve(dirname(path), db) }),
    ...prefixed('llm', llm),
    ...prefixed('embeddings', embeddings),
  };
}

function parseJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StrataError('CONFIG_INVALID', `config file ${path} is not readable JSON (${error instanceof Error ? error.message : String(error)})`, {
      hint: 'Fix the file, e.g. { "namespace": "me", "dataDir": "./strata-data" }.',
      cause: error,
    });
  }
}

function prefixed(prefix: string, values: Record<string, string | number | undefined> | undefined): FileValues {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [`${prefix}.${key}`, value]));
}
