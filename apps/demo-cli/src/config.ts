import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { StrataError } from '@strata/core';

/** The CLI's environment: read once, here, and nowhere else. */
const envSchema = z.object({
  STRATA_DATA_DIR: z.string().min(1).optional(),
  STRATA_CHROMA_URL: z.url({ error: 'STRATA_CHROMA_URL must be a URL such as http://127.0.0.1:8765' }).optional(),
  XDG_DATA_HOME: z.string().min(1).optional(),
});

export interface CliConfig {
  /** Directory holding the SQLite files. @defaultValue $XDG_DATA_HOME/strata or ~/.local/share/strata */
  dataDir: string;
  /** A Chroma server for the knowledge base instead of the SQLite file's vectors. */
  chromaUrl?: string;
}

/** Effective config: flags > env > defaults. */
export function loadConfig(flags: { dataDir?: string; chromaUrl?: string }, env: NodeJS.ProcessEnv = process.env): CliConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new StrataError('CONFIG_INVALID', `environment is invalid:\n${z.prettifyError(parsed.error)}`, { hint: 'Fix or unset the variables named above.' });
  }
  const fallback = join(parsed.data.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'strata');
  const chromaUrl = flags.chromaUrl ?? parsed.data.STRATA_CHROMA_URL;
  if (chromaUrl !== undefined && !URL.canParse(chromaUrl)) {
    throw new StrataError('CONFIG_INVALID', `--chroma-url must be a URL (got ${JSON.stringify(chromaUrl)})`, { hint: 'For example --chroma-url http://127.0.0.1:8765' });
  }
  return { dataDir: resolve(flags.dataDir ?? parsed.data.STRATA_DATA_DIR ?? fallback), ...(chromaUrl ? { chromaUrl } : {}) };
}
