import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, json, runCli } from './support/cli.js';

const sandbox = createSandbox('config');
afterAll(() => sandbox.dispose());

interface Setting {
  key: string;
  value: string | null;
  source: string;
  env: string;
}
interface ConfigReport {
  configFile: { path: string; exists: boolean };
  settings: Setting[];
}
const settingOf = (report: ConfigReport, key: string) => report.settings.find((s) => s.key === key);

const defaultFile = join(sandbox.dir, 'config', 'strata', 'config.json');
mkdirSync(join(sandbox.dir, 'config', 'strata'));
writeFileSync(
  defaultFile,
  JSON.stringify({
    namespace: 'from-file',
    chromaUrl: 'http://file.example:8000',
    dataDir: 'relative-data',
    llm: { baseUrl: 'http://llm.example/v1', model: 'file-model', apiKey: 'sk-from-file-abcdef' },
  }),
);
const { STRATA_DATA_DIR: _unused, ...envWithoutDataDir } = sandbox.env;

describe('strata config: flags > env > config file > defaults', () => {
  it('takes each value from the highest layer that sets it, and masks secrets', async () => {
    const env = { ...envWithoutDataDir, STRATA_NAMESPACE: 'from-env', STRATA_REDIS_URL: 'redis://env.example:6379' };
    const report = json<ConfigReport>(await runCli(['--namespace', 'from-flag', 'config', '--json'], { env }));
    expect(report.configFile).toEqual({ path: defaultFile, exists: true });
    expect(settingOf(report, 'namespace')).toMatchObject({ value: 'from-flag', source: 'flag' });
    expect(settingOf(report, 'redisUrl')).toMatchObject({ value: 'redis://env.example:6379', source: 'env' });
    expect(settingOf(report, 'chromaUrl')).toMatchObject({ value: 'http://file.example:8000', source: 'file' });
    expect(settingOf(report, 'dataDir')).toMatchObject({ value: join(sandbox.dir, 'config', 'strata', 'relative-data'), source: 'file' }); // relative to the file
    expect(settingOf(report, 'llm.apiKey')).toMatchObject({ value: '****cdef', source: 'file' });
    expect(settingOf(report, 'embeddings.model')).toMatchObject({ value: null, source: 'unset' });
    const table = await runCli(['config'], { env: { ...env, OPENAI_API_KEY: 'sk-secret-from-env-9876', STRATA_REDIS_URL: 'redis://app:hunter2@env.example:6379' } });
    expect(table.stdout).toMatch(/llm\.apiKey\s+\*{4}9876\s+env\s+OPENAI_API_KEY/);
    expect(table.stdout).toMatch(/redisUrl\s+redis:\/\/app:\*{4}@env\.example:6379\s+env/);
    expect(table.stdout).not.toMatch(/sk-secret|hunter2/);
  });

  it('falls back to the defaults without a config file', async () => {
    const report = json<ConfigReport>(await runCli(['config', '--json'], { env: { ...envWithoutDataDir, XDG_CONFIG_HOME: join(sandbox.dir, 'nowhere') } }));
    expect(report.configFile.exists).toBe(false);
    expect(settingOf(report, 'namespace')).toMatchObject({ value: 'default', source: 'default' });
    expect(settingOf(report, 'dataDir')).toMatchObject({ value: join(sandbox.dir, 'xdg-data', 'strata'), source: 'default' });
    expect(settingOf(report, 'llm.baseUrl')).toMatchObject({ value: null, source: 'unset' });
  });

  it('--config FILE and STRATA_CONFIG name another file', async () => {
    const other = join(sandbox.dir, 'other.json');
    writeFileSync(other, JSON.stringify({ namespace: 'other-file' }));
    for (const [args, env] of [
      [['--config', other], envWithoutDataDir],
      [[], { ...envWithoutDataDir, STRATA_CONFIG: other }],
    ] as const) {
      const report = json<ConfigReport>(await runCli([...args, 'config', '--json'], { env }));
      expect(settingOf(report, 'namespace')).toMatchObject({ value: 'other-file', source: 'file' });
    }
  });

  it('exits 1 naming the bad setting and where it came from', async () => {
    const typo = join(sandbox.dir, 'typo.json');
    writeFileSync(typo, JSON.stringify({ namespase: 'x' }));
    const broken = join(sandbox.dir, 'broken.json');
    writeFileSync(broken, '{ "namespace": ');
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['--config', typo, 'config'], sandbox.env, /config file .*typo\.json is invalid:[\s\S]*namespase/],
      [['--config', broken, 'config'], sandbox.env, /broken\.json is not readable JSON/],
      [['--config', join(sandbox.dir, 'missing.json'), 'config'], sandbox.env, /missing\.json does not exist/],
      [['config'], { ...sandbox.env, STRATA_EMBEDDINGS_DIMENSIONS: 'many' }, /STRATA_EMBEDDINGS_DIMENSIONS: .* \(got "many"\)/],
      [['--redis-url', 'http://not-redis', 'config'], sandbox.env, /--redis-url: must be a Redis URL/],
    ];
    for (const [args, env, message] of cases) {
      const { code, stderr } = await runCli(args, { env });
      expect({ args, code }).toEqual({ args, code: 1 });
      expect(stderr).toMatch(message);
      expect(stderr).toMatch(/\nhint: /);
    }
  });

  it('refuses --db and an encryption key beside --store rather than ignoring them, before reaching any server', async () => {
    // port 9 (discard): nothing is opened, so no server is needed for the refusal
    const store = ['--store', 'postgres://app:secret@127.0.0.1:9/db', '--chroma-url', 'http://127.0.0.1:9'];
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [
        [...store, '--db', join(sandbox.dir, 'x.sqlite'), 'search', 'x'],
        sandbox.env,
        /--db .*x\.sqlite names a SQLite file, but --store postgres:\/\/app:\*\*\*\*@127\.0\.0\.1:9\/db keeps sessions on PostgreSQL/,
      ],
      [[...store, 'sessions'], { ...sandbox.env, STRATA_ENCRYPTION_KEY: 'k'.repeat(32) }, /an encryption key is set, but --store .* keeps sessions on PostgreSQL, where strata encrypts nothing/],
      [[...store, 'search', 'x'], { ...sandbox.env, STRATA_ENCRYPTION_KEY: 'k'.repeat(32) }, /an encryption key is set/],
    ];
    for (const [args, env, message] of cases) {
      const { code, stderr } = await runCli(args, { env });
      expect({ args, code }).toEqual({ args, code: 1 });
      expect(stderr).toMatch(message);
      expect(stderr).toMatch(/\nhint: /);
      expect(stderr).not.toMatch(/secret/);
    }
  });
});
