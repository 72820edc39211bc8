import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopicReport } from '@strata/core';
import { createSandbox, json, runCli } from './support/cli.js';

const sandbox = createSandbox('topics');
const env = { ...sandbox.env, STRATA_NAMESPACE: 'ana' };
let sessionId = '';

beforeAll(async () => {
  const input = ['Are the Berlin bike lanes good for cycling to work?', 'Which Berlin bike lanes follow the canal?', 'Give me a lasagna recipe with spinach and ricotta.', ''].join('\n');
  const { stdout } = await runCli(['chat'], { env, input });
  sessionId = /saved session (ses_\S+)/.exec(stdout)![1]!;
});
afterAll(() => sandbox.dispose());

describe('strata topics: the conversation tree and topic stats', () => {
  it('show --mermaid prints the conversation tree as a Mermaid flowchart', async () => {
    const { code, stdout } = await runCli(['show', sessionId, '--mermaid'], { env });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^flowchart TD\n {2}subgraph topic_\S+\["Are the Berlin bike lanes good for cycling …"\]\n {4}t1\["#1 user: Are the Berlin bike lanes/);
    expect(stdout).toContain('t1 --> t2');
    expect(stdout).toContain('#3 user: Give me a lasagna recipe');
  });

  it('inspect shows each topic with its state, memory type, half-life, accesses and active / compressed turns', async () => {
    const { stdout } = await runCli(['inspect', sessionId], { env });
    expect(stdout).toMatch(/Topics \(decay and cold storage\)\ntopic\s+state\s+memory\s+half-life\s+priority\s+importance\s+accesses\s+active\s+compressed\s+stored \/ text/);
    // the chat's replies search memory, so each topic has a few accesses (the half-life doubles every 3)
    expect(stdout).toMatch(/Are the Berlin bike lanes good for …\s+active\s+short-term\s+(24|48)h\s+0\.\d{3}\s+0\.50\s+\d+\s+\d+\s+0\s+\d+ \/ \d+ B/);
    const data = json<{ topics: TopicReport[] }>(await runCli(['inspect', sessionId, '--json'], { env }));
    expect(data.topics.length).toBeGreaterThanOrEqual(2);
    expect(data.topics.reduce((n, t) => n + t.activeMessages + t.compressedMessages, 0)).toBe(3);
    expect(data.topics[0]).toMatchObject({ isActive: true, memoryType: 'short-term', compressedMessages: 0 });
    for (const topic of data.topics) expect(topic.halfLifeMs).toBe(86_400_000 * 2 ** Math.floor(topic.accessCount / 3));
  });
});
