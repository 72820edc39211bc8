import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { LoadedConfig } from '../config.js';
import { pc } from '../format/colors.js';
import { print, printJson } from '../format/output.js';
import { renderTable } from '../format/table.js';
import { configOf } from '../run-command.js';

/** `strata config`: the effective config, where each value comes from, secrets masked. */
export function registerConfigCommand(program: Command): void {
  program
    .command('config')
    .description('show the effective config (flags > env > config file > defaults), secrets masked')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const loaded = await configOf(command);
      const { SETTINGS } = await import('../config.js');
      const rows = describeConfig(SETTINGS, loaded);
      if (options.json) return printJson({ configFile: { path: loaded.configFile, exists: existsSync(loaded.configFile) }, settings: rows });
      print(
        await renderTable(
          ['setting', 'value', 'from', 'env'],
          rows.map((r) => [r.key, r.value ?? pc.dim('-'), r.source, r.env]),
        ),
      );
      print(pc.dim(`\nconfig file: ${loaded.configFile}${existsSync(loaded.configFile) ? '' : ' (not present)'}`));
    });
}

function describeConfig(settings: typeof import('../config.js').SETTINGS, loaded: LoadedConfig): { key: string; value: string | null; source: string; env: string }[] {
  return settings.map((s) => {
    const raw = loaded.values[s.key];
    // an encryption key shows no character at all: its tail would narrow a guess
    const value = raw === undefined ? null : s.key === 'encryptionKey' ? '**** (set)' : 'secret' in s ? mask(String(raw)) : maskUrlPassword(String(raw));
    return { key: s.key, value, source: loaded.sources[s.key], env: s.env };
  });
}

/** Shows that a secret is set and which one, never the secret: `****cdef`. */
export function mask(secret: string): string {
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}

/** `redis://user:****@host:6379`: a password inside a URL is a secret too. */
function maskUrlPassword(value: string): string {
  if (!URL.canParse(value)) return value;
  const url = new URL(value);
  if (!url.password) return value;
  url.password = '****';
  return url.toString();
}
