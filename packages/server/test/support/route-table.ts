/** The ids a request names; the tenancy matrix fills them with another tenant's ids, or with ids that do not exist. */
export interface RouteIds {
  sessionId: string;
  messageId: string;
  factId: string;
  namespace: string;
}

/** What a request reaches: a session, a message, a fact or a namespace of some tenant. */
export type Reach = 'session' | 'message' | 'fact' | 'namespace';

/** A request, before the credential is added. */
export interface RouteRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One row of the route table: the scope it needs, what it reaches, and how to build it from ids. */
export interface RouteCase {
  name: string;
  /** The scope the route needs; 'bearer' is any valid key (MCP checks scopes per tool). */
  scope: 'read' | 'write' | 'forget' | 'admin' | 'bearer';
  /** What of another tenant the request names; empty for routes that name nothing (flush, metrics, mcp). */
  reaches: Reach[];
  build(ids: RouteIds): RouteRequest;
}

const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}): RouteRequest => ({
  method,
  path,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const get = (path: string): RouteRequest => ({ method: 'GET', path });
const del = (path: string): RouteRequest => ({ method: 'DELETE', path });
const q = encodeURIComponent;
const session = (ids: RouteIds) => `/v1/sessions/${q(ids.sessionId)}`;

/**
 * Every /v1 route of the spec (some twice, with and without an optional namespace), /metrics
 * and /mcp. `bundle` gives the export bundle /v1/import sends (made once the memory exists).
 */
export function routeTable(bundle: () => unknown): RouteCase[] {
  return [
    { name: 'POST /v1/sessions', scope: 'write', reaches: ['namespace'], build: (ids) => json('POST', '/v1/sessions', { namespace: ids.namespace, title: 'new one' }) },
    { name: 'GET /v1/sessions?namespace', scope: 'read', reaches: ['namespace'], build: (ids) => get(`/v1/sessions?namespace=${q(ids.namespace)}`) },
    { name: 'GET /v1/sessions/{id}', scope: 'read', reaches: ['session'], build: (ids) => get(session(ids)) },
    { name: 'PATCH /v1/sessions/{id}', scope: 'write', reaches: ['session'], build: (ids) => json('PATCH', session(ids), { title: 'renamed' }) },
    { name: 'DELETE /v1/sessions/{id}', scope: 'forget', reaches: ['session'], build: (ids) => del(session(ids)) },
    {
      name: 'POST /v1/sessions/{id}/messages',
      scope: 'write',
      reaches: ['session'],
      build: (ids) => json('POST', `${session(ids)}/messages`, { messages: [{ role: 'user', content: 'hello there' }] }, { 'idempotency-key': `matrix-${ids.sessionId}` }),
    },
    { name: 'GET /v1/sessions/{id}/messages', scope: 'read', reaches: ['session'], build: (ids) => get(`${session(ids)}/messages?fromSeq=1&limit=10`) },
    { name: 'DELETE /v1/sessions/{id}/messages/{messageId}', scope: 'forget', reaches: ['session', 'message'], build: (ids) => del(`${session(ids)}/messages/${q(ids.messageId)}`) },
    { name: 'POST /v1/sessions/{id}/context', scope: 'read', reaches: ['session'], build: (ids) => json('POST', `${session(ids)}/context`, { query: 'where do I live', budgetTokens: 800 }) },
    { name: 'GET /v1/sessions/{id}/export?format=json', scope: 'read', reaches: ['session'], build: (ids) => get(`${session(ids)}/export?format=json`) },
    { name: 'GET /v1/sessions/{id}/export?format=markdown', scope: 'read', reaches: ['session'], build: (ids) => get(`${session(ids)}/export?format=markdown`) },
    { name: 'POST /v1/search', scope: 'read', reaches: ['namespace'], build: (ids) => json('POST', '/v1/search', { namespace: ids.namespace, query: 'live love' }) },
    { name: 'GET /v1/facts?namespace', scope: 'read', reaches: ['namespace'], build: (ids) => get(`/v1/facts?namespace=${q(ids.namespace)}&history=true`) },
    { name: 'DELETE /v1/facts/{factId}', scope: 'forget', reaches: ['fact'], build: (ids) => del(`/v1/facts/${q(ids.factId)}`) },
    { name: 'DELETE /v1/facts/{factId}?namespace', scope: 'forget', reaches: ['fact', 'namespace'], build: (ids) => del(`/v1/facts/${q(ids.factId)}?namespace=${q(ids.namespace)}`) },
    { name: 'POST /v1/forget {messageIds}', scope: 'forget', reaches: ['message'], build: (ids) => json('POST', '/v1/forget', { messageIds: [ids.messageId] }) },
    {
      name: 'POST /v1/forget {messageIds, namespace}',
      scope: 'forget',
      reaches: ['message', 'namespace'],
      build: (ids) => json('POST', '/v1/forget', { messageIds: [ids.messageId], namespace: ids.namespace }),
    },
    { name: 'POST /v1/forget {factIds, namespace}', scope: 'forget', reaches: ['fact', 'namespace'], build: (ids) => json('POST', '/v1/forget', { factIds: [ids.factId], namespace: ids.namespace }) },
    { name: 'POST /v1/forget {factIds}', scope: 'forget', reaches: ['fact'], build: (ids) => json('POST', '/v1/forget', { factIds: [ids.factId] }) },
    { name: 'POST /v1/forget {sessionId}', scope: 'forget', reaches: ['session'], build: (ids) => json('POST', '/v1/forget', { sessionId: ids.sessionId }) },
    { name: 'POST /v1/forget {namespace}', scope: 'admin', reaches: ['namespace'], build: (ids) => json('POST', '/v1/forget', { namespace: ids.namespace }) },
    { name: 'POST /v1/import?namespace', scope: 'write', reaches: ['namespace'], build: (ids) => json('POST', `/v1/import?namespace=${q(ids.namespace)}&merge=true`, bundle()) },
    { name: 'GET /v1/usage?namespace', scope: 'read', reaches: ['namespace'], build: (ids) => get(`/v1/usage?namespace=${q(ids.namespace)}`) },
    {
      name: 'GET /v1/usage?namespace&sessionId',
      scope: 'read',
      reaches: ['namespace', 'session'],
      build: (ids) => get(`/v1/usage?namespace=${q(ids.namespace)}&sessionId=${q(ids.sessionId)}`),
    },
    { name: 'GET /v1/status?namespace', scope: 'read', reaches: ['namespace'], build: (ids) => get(`/v1/status?namespace=${q(ids.namespace)}`) },
    { name: 'POST /v1/flush', scope: 'write', reaches: [], build: () => json('POST', '/v1/flush', {}) },
    { name: 'GET /v1/status', scope: 'read', reaches: [], build: () => get('/v1/status') },
    { name: 'GET /v1/usage', scope: 'read', reaches: [], build: () => get('/v1/usage') },
    { name: 'GET /v1/sessions', scope: 'read', reaches: [], build: () => get('/v1/sessions') },
    { name: 'GET /metrics', scope: 'admin', reaches: [], build: () => get('/metrics') },
    {
      name: 'POST /mcp',
      scope: 'bearer',
      reaches: [],
      build: () => json('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { accept: 'application/json, text/event-stream' }),
    },
  ];
}
