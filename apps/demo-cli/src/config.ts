import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { StrataError } from '@strata/core/errors';
import { readConfigFile, type FileValues } from './config-file.js';

/** Global flags, as commander parses them. */
export interface GlobalFlags {
  config?: string;
  dataDir?: string;
  db?: string;
  store?: string;
  namespace?: string;
  chromaUrl?: string;
  redisUrl?: string;
  redisPrefix?: string;
  llmBaseUrl?: string;
  llmModel?: string;
}

export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** How structured output is asked for (the llm endpoint only). @defaultValue 'auto' */
  method?: 'auto' | 'functionCalling' | 'jsonSchema' | 'jsonMode';
}

export interface CliConfig {
  /** Directory holding the SQLite files. @defaultValue $XDG_DATA_HOME/strata or ~/.local/share/strata */
  dataDir: string;
  /** The SQLite file, when not the data dir's memory.sqlite (`--db FILE`). Absolute. */
  db?: string;
  /**
   * A PostgreSQL server for the session store instead of the SQLite file (`--store
   * postgres://...`, schema from its `?schema=` parameter, default "strata"): one memory
   * shared by every process that opens it. Its vectors need Chroma (`chromaUrl`).
   */
  store?: string;
  /** Namespace of new sessions, search and facts. @defaultValue 'default' */
  namespace: string;
  /** A Chroma server for the knowledge base instead of the SQLite file's vectors. */
  chromaUrl?: string;
  /** Redis for the job queue (BullMQ) instead of the in-process queue. */
  redisUrl?: string;
  /** Key prefix on Redis: one prefix per memory file. @defaultValue 'strata' */
  redisPrefix: string;
  /** Encrypts the SQLite file at rest (SQLCipher); the same key opens it again. Secret. */
  encryptionKey?: string;
  /** An OpenAI-compatible chat endpoint: the chat assistant, summaries and facts. */
  llm?: Endpoint;
  /** An OpenAI-compatible embeddings endpoint instead of the offline hashing embeddings. */
  embeddings?: Endpoint & { dimensions?: number };
}

export type ConfigSource = 'flag' | 'env' | 'file' | 'default' | 'unset';

/** Every setting: its flag (if any), its env variable, and whether it is a secret. */
export const SETTINGS = [
  { key: 'dataDir', flag: 'dataDir', env: 'STRATA_DATA_DIR' },
  { key: 'db', flag: 'db', env: 'STRATA_DB' },
  { key: 'store', flag: 'store', env: 'STRATA_STORE' },
  { key: 'namespace', flag: 'namespace', env: 'STRATA_NAMESPACE' },
  { key: 'chromaUrl', flag: 'chromaUrl', env: 'STRATA_CHROMA_URL' },
  { key: 'redisUrl', flag: 'redisUrl', env: 'STRATA_REDIS_URL' },
  { key: 'redisPrefix', flag: 'redisPrefix', env: 'STRATA_REDIS_PREFIX' },
  { key: 'encryptionKey', env: 'STRATA_ENCRYPTION_KEY', secret: true },
  { key: 'llm.baseUrl', flag: 'llmBaseUrl', env: 'STRATA_LLM_BASE_URL' },
  { key: 'llm.model', flag: 'llmModel', env: 'STRATA_LLM_MODEL' },
  { key: 'llm.apiKey', env: 'OPENAI_API_KEY', secret: true },
  { key: 'llm.method', env: 'STRATA_LLM_METHOD' },
  { key: 'embeddings.baseUrl', env: 'STRATA_EMBEDDINGS_BASE_URL' },
  { key: 'embeddings.model', env: 'STRATA_EMBEDDINGS_MODEL' },
  { key: 'embeddings.apiKey', env: 'STRATA_EMBEDDINGS_API_KEY', secret: true },
  { key: 'embeddings.dimensions', env: 'STRATA_EMBEDDINGS_DIMENSIONS' },
] as const satisfies readonly { key: string; flag?: keyof GlobalFlags; env: string; secret?: boolean }[];

export type SettingKey = (typeof SETTINGS)[number]['key'];

/** The CLI's environment: read once, here, and nowhere else. */
const envSchema = z.object({
  ...Object.fromEntries(SETTINGS.map((s) => [s.env, z.string().optional()])),
  STRATA_CONFIG: z.string().min(1).optional(),
  XDG_DATA_HOME: z.string().min(1).optional(),
  XDG_CONFIG_HOME: z.string().min(1).optional(),
}) as z.ZodType<Record<string, string | undefined>>;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:8765' });
const settingsSchema = z.object({
  dataDir: z.string().min(1),
  db: z.string().min(1, 'must be the path of a SQLite file').optional(),
  store: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a PostgreSQL URL such as postgres://postgres@127.0.0.1:5432/postgres' }).optional(),
  // not trimmed: a namespace is compared exactly (core rejects surrounding whitespace with a hint)
  namespace: z.string().min(1, 'must be a non-empty name'),
  chromaUrl: httpUrl.optional(),
  redisUrl: z.url({ protocol: /^rediss?$/, error: 'must be a Redis URL such as redis://127.0.0.1:6379' }).optional(),
  redisPrefix: z.string().regex(/^[^:\s]+$/, 'must be non-empty, without ":" or spaces'),
  encryptionKey: z.string().min(1, 'must not be empty').optional(),
  'llm.baseUrl': httpUrl.optional(),
  'llm.model': z.string().min(1).optional(),
  'llm.apiKey': z.string().min(1).optional(),
  'llm.method': z.enum(['auto', 'functionCalling', 'jsonSchema', 'jsonMode'], { error: "must be 'auto', 'functionCalling', 'jsonSchema' or 'jsonMode'" }).optional(),
  'embeddings.baseUrl': httpUrl.optional(),
  'embeddings.model': z.string().min(1).optional(),
  'embeddings.apiKey': z.string().min(1).optional(),
  'embeddings.dimensions': z.coerce.number().int('must be a whole number').positive().optional(),
});

export interface LoadedConfig {
  config: CliConfig;
  /** Where each setting came from, for `strata config`. */
  sources: Record<SettingKey, ConfigSource>;
  values: Record<SettingKey, string | number | undefined>;
  /** The config file consulted (it may not exist). */
  configFile: string;
}

/** Effective config: flags > env > config file > defaults, validated once. */
export function loadConfig(flags: GlobalFlags, rawEnv: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const env = envSchema.parse(rawEnv);
  const configFile = resolve(flags.config ?? env.STRATA_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'strata', 'config.json'));
  const file = readConfigFile(configFile, flags.config !== undefined || env.STRATA_CONFIG !== undefined);
  const defaults: FileValues = { dataDir: join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'strata'), namespace: 'default', redisPrefix: 'strata' };
  const values = {} as Record<SettingKey, string | number | undefined>;
  const sources = {} as Record<SettingKey, ConfigSource>;
  for (const setting of SETTINGS) {
    const layers: [ConfigSource, string | number | undefined][] = [
      ['flag', 'flag' in setting ? flags[setting.flag] : undefined],
      ['env', env[setting.env] === '' ? undefined : env[setting.env]],
      ['file', file[setting.key]],
      ['default', defaults[setting.key]],
    ];
    const [source, value] = layers.find(([, v]) => v !== undefined) ?? ['unset', undefined];
    values[setting.key] = value;
    sources[setting.key] = source;
  }
  return { config: toCliConfig(values, sources), sources, values, configFile };
}

function toCliConfig(values: Record<SettingKey, string | number | undefined>, sources: Record<SettingKey, ConfigSource>): CliConfig {
  const parsed = settingsSchema.safeParse(values);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0]) as SettingKey;
      return `  ${describeSetting(key, sources[key])}: ${issue.message} (got ${JSON.stringify(values[key])})`;
    });
    throw new StrataError('CONFIG_INVALID', `config is invalid:\n${lines.join('\n')}`, { hint: 'Fix or unset the settings named above; `strata config` shows where each one comes from.' });
  }
  const s = parsed.data;
  const dataDir = resolve(s.dataDir);
  return {
    dataDir,
    ...(s.db ? { db: resolve(s.db) } : {}),
    ...(s.store ? { store: s.store } : {}),
    namespace: s.namespace,
    ...(s.chromaUrl ? { chromaUrl: s.chromaUrl } : {}),
    ...(s.redisUrl ? { redisUrl: s.redisUrl } : {}),
    redisPrefix: s.redisPrefix,
    ...(s.encryptionKey ? { encryptionKey: s.encryptionKey } : {}),
    ...withMethod(pairEndpoint('llm', s['llm.baseUrl'], s['llm.model'], s['llm.apiKey']), s['llm.method']),
    ...pairEndpoint('embeddings', s['embeddings.baseUrl'], s['embeddings.model'], s['embeddings.apiKey'], s['embeddings.dimensions']),
  };
}

/** An endpoint needs both its URL and its model; one without the other is a mistake worth naming. */
function pairEndpoint(name: 'llm' | 'embeddings', baseUrl?: string, model?: string, apiKey?: string, dimensions?: number): Partial<CliConfig> {
  if (baseUrl === undefined && model === undefined) return {};
  const upper = name.toUpperCase();
  if (baseUrl === undefined || model === undefined) {
    throw new StrataError('CONFIG_INVALID', `${name} needs both a base URL and a model (got ${baseUrl ? `base URL ${baseUrl}` : `model ${model}`} only)`, {
      hint: `Set both STRATA_${upper}_BASE_URL and STRATA_${upper}_MODEL (or neither, for the offline default).`,
    });
  }
  return { [name]: { baseUrl, model, ...(apiKey ? { apiKey } : {}), ...(dimensions ? { dimensions } : {}) } };
}

/** The llm endpoint with its structured-output method, when both are set. */
function withMethod(config: Partial<CliConfig>, method: Endpoint['method']): Partial<CliConfig> {
  return config.llm && method ? { llm: { ...config.llm, method } } : config;
}

function describeSetting(key: SettingKey, source: ConfigSource): string {
  const setting = SETTINGS.find((s) => s.key === key);
  if (!setting) return key;
  if (source === 'flag' && 'flag' in setting) return `--${setting.flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (source === 'env') return setting.env;
  return source === 'file' ? `${key} (config file)` : key;
}
