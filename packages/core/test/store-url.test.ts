import { describe, expect, it } from 'vitest';
import { createMemory, StrataError } from '../src/index.js';
import { loadOpener, openStoreUrl } from '../src/store-url.js';

/** The StrataError a promise rejects with (fails the test when it resolves or throws something else). */
async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StrataError);
  return error as StrataError;
}

describe('a store named by URL', () => {
  it('memory: opens the in-memory store, which the memory closes with itself', async () => {
    const memory = await createMemory({ store: 'memory:' });
    const session = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(session.id, { role: 'user', content: 'I moved to Lisbon in May.' });
    const { messages } = await memory.getContext(session.id, { budgetTokens: 500 });
    expect(messages.map((m) => m.content)).toContain('I moved to Lisbon in May.');
    await memory.close();
  });

  it.each([
    ['mysql://root@localhost/db', 'the scheme "mysql:"'],
    ['memory:extra', 'the scheme "memory:"'],
    ['/var/lib/memory.sqlite', 'no scheme'],
    ['', 'no scheme'],
  ])('refuses %j with CONFIG_INVALID and the forms it takes', async (url, said) => {
    const error = await rejection(createMemory({ store: url }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(said);
    expect(error.hint).toContain('sqlite:PATH');
    expect(error.hint).toContain('postgres://');
  });

  it('never echoes the URL: it may hold a password', async () => {
    const error = await rejection(openStoreUrl('mongodb://admin:s3cret@db.internal/app'));
    expect(`${error.message} ${error.hint}`).not.toContain('s3cret');
  });

  it("names the package to install when the scheme's adapter is missing", async () => {
    const error = await rejection(loadOpener('@strata/store-that-is-not-installed'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.hint).toBe('Run npm install @strata/store-that-is-not-installed.');
  });

  it('refuses a package that exports no openStoreUrl', async () => {
    // zod is installed and is no store
    const error = await rejection(loadOpener('zod'));
    expect(error.message).toContain('exports no openStoreUrl');
  });
});
