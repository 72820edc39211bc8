import { type BackgroundError, createInProcessJobQueue, type Memory, type TokenUsage } from '@strata/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from './support/expect-problem.js';
import { type RawResponse, sendRaw } from './support/raw-request.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { FLAKY_MARK, NAMED_CALL, UNNAMED_CALL, UsageFactExtractor } from './support/usage-extractor.js';
import { createTestMemory, overriding, TestKeyStore } from './test-memory.js';

/** A namespace whose name needs escaping in a Prometheus label value. */
const QUOTED = 'q"uo\\te';

/** What one extraction reports (two model calls), and that times `n`. */
const perJob: TokenUsage = { inputTokens: NAMED_CALL.inputTokens + UNNAMED_CALL.inputTokens, outputTokens: NAMED_CALL.outputTokens + UNNAMED_CALL.outputTokens, calls: 2 };
const times = (n: number, usage: TokenUsage): TokenUsage => ({ inputTokens: n * usage.inputTokens, outputTokens: n * usage.outputTokens, calls: n * usage.calls });
const named: TokenUsage = { inputTokens: NAMED_CALL.inputTokens, outputTokens: NAMED_CALL.outputTokens, calls: 1 };

let memory: Memory;
let server: TestServer;
/** The same memory served in open mode (no keys): every namespace in reach. */
let open: TestServer;
const keys = new TestKeyStore();
const auth = { acme: '', acmeAdmin: '', acmeWrite: '', globex: '', team: '' };
const ids = { lisbon: '', flaky: '', globex: '' };
/** What the memory reported through onError. */
const reported: BackgroundError[] = [];
/** What POST /v1/flush answered the acme key after everything was appended. */
let flushed: RawResponse;

function get(path: string, authorization?: string, on: TestServer = server): Promise<RawResponse> {
  return sendRaw(on.port, { method: 'GET', path, headers: authorization ? { authorization } : {} });
}

function post(path: string, body: unknown, authorization?: string, on: TestServer = server): Promise<RawResponse> {
  return sendRaw(on.port, { method: 'POST', path, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) } });
}

/** Creates a session over HTTP and appends `contents` to it; returns its id. */
async function converse(authorization: string | undefined, namespace: string | undefined, contents: string[], on: TestServer = server): Promise<string> {
  const created = await post('/v1/sessions', namespace === undefined ? {} : { namespace }, authorization, on);
  expect(created.status, created.text).toBe(201);
  const id = (JSON.parse(created.text) as { id: string }).id;
  const messages = contents.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content }));
  expect((await post(`/v1/sessions/${encodeURIComponent(id)}/messages`, { messages }, authorization, on)).status).toBe(201);
  return id;
}

const json = (res: RawResponse) => JSON.parse(res.text);
const q = encodeURIComponent;

beforeAll(async () => {
  const extractor = new UsageFactExtractor();
  memory = await createTestMemory({ extractor, queue: createInProcessJobQueue({ backoffMs: 1 }), onError: (e) => void reported.push(e) });
  // derivation waits for the flush (it starts counting before it lets extraction go on): the flush counts all of it
  const flushing = overriding(memory, {
    flush: (options) => {
      const report = memory.flush(options);
      extractor.open();
      return report;
    },
  });
  server = await startTestServer({ memory: flushing, auth: { keys }, limits: { rateLimit: false } });
  open = await startTestServer({ memory, limits: { rateLimit: false } });
  auth.acme = await keys.bearer('acme', ['read', 'write']);
  auth.acmeAdmin = await keys.bearer('acme', ['admin']);
  auth.acmeWrite = await keys.bearer('acme', ['write']);
  auth.globex = await keys.bearer('globex', ['read', 'write']);
  auth.team = await keys.bearer('team/', ['read'], 'prefix');
  ids.lisbon = await converse(auth.acme, undefined, ['I live in Lisbon.', 'Lisbon is lovely.']);
  ids.flaky = await converse(auth.acme, undefined, [`I grew up in ${FLAKY_MARK}.`]);
  ids.globex = await converse(auth.globex, undefined, ['I love kitesurfing.']);
  await converse(undefined, QUOTED, ['I collect stamps.'], open);
  flushed = await post('/v1/flush', {}, auth.acme);
});

afterAll(async () => {
  await server?.close();
  await open?.close();
  await memory?.close();
});

describe('GET /v1/usage', () => {
  it("answers the ledger's sums for the key's namespace: in total, by job type, by model and by session", async () => {
    const res = await get('/v1/usage', auth.acme);
    expect(res.status, res.text).toBe(200);
    const report = json(res);
    expect(report).toMatchObject({
      namespace: 'acme',
      jobsWithUsage: 2,
      total: times(2, perJob),
      byJobType: { ingest: times(2, perJob) },
      byModel: { [NAMED_CALL.model]: times(2, named) },
      bySession: { [ids.lisbon]: perJob, [ids.flaky]: perJob },
    });
    expect(report).not.toHaveProperty('sessionId');
    expect(report).toEqual(await memory.usage({ namespace: 'acme' }));
    expect(json(await get('/v1/usage?namespace=acme', auth.acme))).toEqual(report);
  });

  it('narrows the report to one session of the namespace', async () => {
    const res = await get(`/v1/usage?namespace=acme&sessionId=${q(ids.flaky)}`, auth.acme);
    expect(res.status, res.text).toBe(200);
    expect(json(res)).toMatchObject({ namespace: 'acme', sessionId: ids.flaky, jobsWithUsage: 1, total: perJob, bySession: { [ids.flaky]: perJob } });
    expect(Object.keys(json(res).bySession)).toEqual([ids.flaky]);
  });

  it('answers a namespace with nothing derived yet with zeros, and any namespace in open mode', async () => {
    expect(json(await get('/v1/usage?namespace=team%2Fnew', auth.team))).toEqual({
      namespace: 'team/new',
      jobs: 0,
      jobsWithUsage: 0,
      total: { inputTokens: 0, outputTokens: 0, calls: 0 },
      byJobType: {},
      byModel: {},
      bySession: {},
    });
    expect(json(await get(`/v1/usage?namespace=${q(QUOTED)}`, undefined, open)).total).toEqual(perJob);
    expect(json(await get('/v1/usage?namespace=globex', undefined, open)).bySession).toEqual({ [ids.globex]: perJob });
  });

  it('answers a namespace out of the key’s reach byte for byte as one that does not exist, before checking the scope', async () => {
    // the write-only key lacks the read scope: out of its reach is still 404, not 403
    const cases: [authorization: string, target: string][] = [
      [auth.globex, 'acme'],
      [auth.acmeWrite, 'globex'],
    ];
    for (const [authorization, target] of cases) {
      const [foreign, missing] = [await get(`/v1/usage?namespace=${target}`, authorization), await get('/v1/usage?namespace=nobody', authorization)];
      expectProblem(foreign, 404, 'NOT_FOUND');
      expect(foreign.text.replaceAll(target, 'nobody')).toBe(missing.text);
      expect(foreign.text).not.toContain(ids.lisbon);
    }
    expectProblem(await get('/v1/usage?namespace=acme', auth.acmeWrite), 403, 'FORBIDDEN');
  });

  it('answers a session of another namespace byte for byte as a session that does not exist', async () => {
    const [foreign, missing] = [await get(`/v1/usage?namespace=acme&sessionId=${q(ids.globex)}`, auth.acme), await get('/v1/usage?namespace=acme&sessionId=ses_missing', auth.acme)];
    expectProblem(foreign, 404, 'NOT_FOUND');
    expect(foreign.text.replaceAll(ids.globex, 'ses_missing')).toBe(missing.text);
    expect(foreign.text).not.toContain('globex');
    // in open mode too: the session must be of the namespace named
    expectProblem(await get(`/v1/usage?namespace=acme&sessionId=${q(ids.globex)}`, undefined, open), 404, 'NOT_FOUND');
  });

  it('refuses what no report can answer: no namespace with a prefix key or in open mode, an empty session id', async () => {
    expect(expectProblem(await get('/v1/usage', auth.team), 400, 'INVALID_INPUT').detail).toBe('namespace is required with a prefix key');
    expect(expectProblem(await get('/v1/usage', undefined, open), 400, 'INVALID_INPUT').detail).toMatch(/namespace/);
    expect(expectProblem(await get('/v1/usage?namespace=acme&sessionId=', auth.acme), 400, 'INVALID_INPUT').detail).toMatch(/sessionId/);
    expectProblem(await get(`/v1/usage?namespace=acme&sessionId=${'s'.repeat(1025)}`, auth.acme), 400, 'INVALID_INPUT');
  });
});

describe('token usage in /v1/flush, /v1/status and /metrics', () => {
  /** Every namespace's work: 4 jobs reported usage (acme 2, globex 1, the quoted one 1). */
  const everything = times(4, perJob);

  it("answers a flush with what the memory counted, by namespace only the key's own", () => {
    expect(flushed.status, flushed.text).toBe(200);
    const report = json(flushed);
    expect(report).toMatchObject({ settled: true, pending: [] });
    expect(report.derivation).toMatchObject({ inputTokens: everything.inputTokens, outputTokens: everything.outputTokens, modelCalls: everything.calls, failedTries: 1, degradedResults: 0 });
    expect(report.derivation.byNamespace).toEqual({ acme: times(2, perJob) });
    expect(reported.map((e) => [e.kind, e.sessionId, e.job?.type, e.attempt])).toEqual([['derive', ids.flaky, 'ingest', { number: 1, willRetry: true }]]);
  });

  it('shows a scoped key the process-wide counters, and by namespace only the namespaces in its reach', async () => {
    const stats = json(await get('/v1/status', auth.acme)).stats.derivation;
    expect(stats).toEqual({ ...memory.stats().derivation, byNamespace: { acme: times(2, perJob) } });
    expect(stats).toMatchObject({ inputTokens: everything.inputTokens, byJobType: { ingest: everything }, byModel: { [NAMED_CALL.model]: times(4, named) }, failedTries: 1 });
    expect(json(await get('/v1/status', auth.globex)).stats.derivation.byNamespace).toEqual({ globex: perJob });
    expect(json(await get('/v1/status?namespace=team%2Fa', auth.team)).stats.derivation.byNamespace).toEqual({});
    expect(Object.keys(json(await get('/v1/status', undefined, open)).stats.derivation.byNamespace).sort()).toEqual(['acme', 'globex', QUOTED].sort());
  });

  it('exposes the token counters on /metrics, by namespace only in the key’s reach, label values escaped', async () => {
    const scoped = await get('/metrics', auth.acmeAdmin);
    expect(scoped.status, scoped.text).toBe(200);
    const lines = scoped.text.split('\n');
    const expected = [
      `strata_model_tokens_total{direction="input",model="small-model"} ${4 * NAMED_CALL.inputTokens}`,
      `strata_model_tokens_total{direction="output",model="small-model"} ${4 * NAMED_CALL.outputTokens}`,
      `strata_model_tokens_total{direction="input",model=""} ${4 * UNNAMED_CALL.inputTokens}`,
      `strata_model_tokens_total{direction="output",model=""} ${4 * UNNAMED_CALL.outputTokens}`,
      'strata_model_calls_total{model="small-model"} 4',
      'strata_model_calls_total{model=""} 4',
      `strata_model_tokens_by_job_total{direction="input",job_type="ingest"} ${everything.inputTokens}`,
      `strata_model_tokens_by_job_total{direction="output",job_type="ingest"} ${everything.outputTokens}`,
      `strata_model_tokens_by_namespace_total{direction="input",namespace="acme"} ${2 * perJob.inputTokens}`,
      `strata_model_tokens_by_namespace_total{direction="output",namespace="acme"} ${2 * perJob.outputTokens}`,
      'strata_derive_failed_tries_total 1',
      '# TYPE strata_model_tokens_by_namespace_total counter',
    ];
    for (const line of expected) expect(lines, line).toContain(line);
    expect(lines.filter((line) => line.startsWith('strata_model_tokens_by_namespace_total'))).toHaveLength(2);
    expect(scoped.text).not.toContain('globex');
    const everyone = (await get('/metrics', undefined, open)).text.split('\n');
    expect(everyone).toContain(`strata_model_tokens_by_namespace_total{direction="input",namespace="globex"} ${perJob.inputTokens}`);
    expect(everyone).toContain(`strata_model_tokens_by_namespace_total{direction="input",namespace="q\\"uo\\\\te"} ${perJob.inputTokens}`);
    expect(everyone.filter((line) => line.startsWith('strata_model_tokens_by_namespace_total'))).toHaveLength(6);
  });
});
