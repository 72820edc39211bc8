import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const TEXT = 'Which lasagna recipe uses spinach, ricotta and a slow tomato sauce?';

describe('SqliteSessionStore cold text', () => {
  let directory: string;
  let path: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-cold-'));
    path = join(directory, 'strata.db');
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps no verbatim copy of a cold turn, and a reopened file still reads and finds it', async () => {
    const first = await createSqliteSessionStore({ path });
    await first.write({
      ops: [
        { type: 'putSession', session: { id: 's1', namespace: 'ns', metadata: {}, createdAt: 1, updatedAt: 1, lastSeq: 0 } },
        { type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm1', role: 'user', content: TEXT, createdAt: 2, metadata: {} }] },
      ],
    });
    await first.writeTopics([{ type: 'compress', messageIds: ['m1'] }]);
    await first.close();

    const raw = new Database(path, { fileMustExist: true });
    const row = raw.prepare("SELECT content, content_z, text_bytes FROM messages WHERE id = 'm1'").get() as { content: string; content_z: Buffer; text_bytes: number };
    raw.close();
    expect(row.content).toBe('');
    expect(row.content_z.includes(Buffer.from('ricotta'))).toBe(false);
    expect(row.text_bytes).toBe(Buffer.byteLength(TEXT));

    // A new connection builds its lexical index from the file: the cold turn is indexed too.
    const second = await createSqliteSessionStore({ path });
    try {
      expect((await second.search({ namespace: 'ns', text: 'ricotta', kinds: ['turn'], k: 3 })).map((h) => h.id)).toEqual(['m1']);
      expect((await second.messages({ sessionId: 's1' }))[0]?.content).toBe(TEXT);
    } finally {
      await second.close();
    }
  });
});
