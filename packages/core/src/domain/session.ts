/** A conversation. Sessions belong to a namespace (a user, an agent, a tenant). */
export interface Session {
  id: string;
  namespace: string;
  title?: string;
  metadata: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  /** Highest seq ever assigned in this session; never decreases, even after forget. */
  lastSeq: number;
}
