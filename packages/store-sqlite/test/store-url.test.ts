import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, StrataError, type StoreUrlOpener } from '@strata/core';
import { inspectSqliteFile, openStoreUrl } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-url-'));
  dirs.push(dir);
  return join(dir, 'memory.sqlite');
}

// what core's createMemory loads by the scheme sqlite:
({ openStoreUrl }) satisfies StoreUrlOpener;

describe('createMemory({ store: "sqlite:PATH" })', () => {
  it.each([
    ['absolute', (path: string) => `sqlite:${path}`],
    ['absolute with three slashes', (path: string) => `sqlite://${path}`],
    ['relative to the working directory', (path: string) => `sqlite:${relative(process.cwd(), path)}`],
  ])('keeps a conversation in the file (%s path), found again by a new memory', async (_, url) => {
    const path = tempPath();
    const first = await createMemory({ store: url(path) });
    const session = await first.sessions.create({ namespace: 'u1' });
    await first.append(session.id, { role: 'user', content: 'My sister Ana plays the cello.' });
    await first.close();
    expect(existsSync(path)).toBe(true);
    expect(inspectSqliteFile({ path }).messages).toBe(1);

    const second = await createMemory({ store: url(path) });
    const { messages } = await second.getContext(session.id, { budgetTokens: 500 });
    expect(messages.map((m) => m.content)).toEqual(['My sister Ana plays the cello.']);
    await second.close();
  });

  it('refuses a URL without a file with CONFIG_INVALID', async () => {
    const error = await createMemory({ store: 'sqlite:' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect((error as StrataError).code).toBe('CONFIG_INVALID');
    expect((error as StrataError).hint).toContain('sqlite:memory.sqlite');
  });
});
