/**
 * The server bench's delivery check: after the load, each session's messages are read back over
 * HTTP (GET /v1/sessions/{id}/messages, every page) and every append the load generator saw
 * acknowledged (201) must be there exactly once. Each append's content ends with a tag unique to
 * that request (also its Idempotency-Key), so a message stored twice shows as a tag seen twice.
 */
import type { LoadTarget, WrkRun } from './wrk-load.js';

/** What the read-back found. */
export interface DeliveryCheck {
  sessions: number;
  /** Appends answered 201 to the load generator. */
  acked: number;
  /** Appends sent (answered or not: a run ends with requests in flight). */
  sent: number;
  /** Tagged messages stored. */
  stored: number;
  /** Acknowledged appends not stored. */
  lost: number;
  /** Tags stored more than once (each extra copy counts). */
  duplicates: number;
  /** Stored appends the load generator never saw answered: in flight when a run stopped. */
  storedUnacked: number;
  /** Sessions whose stored count differs from their acknowledged count. */
  sessionsOff: number;
  /** Sessions whose stored count exceeds what was sent to them. */
  sessionsOverSent: number;
  /** True when every acknowledged append is stored exactly once. */
  isExactlyOnce: boolean;
}

const TAG = /\[([a-z][a-z0-9]*x\d+x\d+)\]$/i;

/** Every page of a session's messages (the tags of their contents). */
async function storedTags(url: string, target: LoadTarget): Promise<string[]> {
  const tags: string[] = [];
  let fromSeq: number | null = 1;
  while (fromSeq !== null) {
    const response = await fetch(`${url}/v1/sessions/${encodeURIComponent(target.sessionId)}/messages?fromSeq=${fromSeq}&limit=1000`, { headers: { authorization: target.authorization } });
    if (!response.ok) throw new Error(`GET messages of ${target.sessionId} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const page = (await response.json()) as { messages: { content: string }[]; nextCursor: number | null };
    for (const message of page.messages) {
      const tag = TAG.exec(message.content)?.[1];
      if (tag !== undefined) tags.push(tag);
    }
    fromSeq = page.nextCursor;
  }
  return tags;
}

/** Reads back every target's session (8 at a time) and compares with what `runs` saw acknowledged. */
export async function checkAckedAppends(url: string, targets: LoadTarget[], runs: WrkRun[]): Promise<DeliveryCheck> {
  const ackedBySession = new Map<string, Set<string>>();
  const sentBySession = new Map<string, number>();
  for (const run of runs) {
    for (const { sessionId, tag } of run.acked) ackedBySession.set(sessionId, (ackedBySession.get(sessionId) ?? new Set()).add(tag));
    for (const [sessionId, n] of run.sent) sentBySession.set(sessionId, (sentBySession.get(sessionId) ?? 0) + n);
  }
  const check: DeliveryCheck = { sessions: targets.length, acked: 0, sent: 0, stored: 0, lost: 0, duplicates: 0, storedUnacked: 0, sessionsOff: 0, sessionsOverSent: 0, isExactlyOnce: false };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < targets.length; i = next++) {
      const target = targets[i] as LoadTarget;
      const acked = ackedBySession.get(target.sessionId) ?? new Set<string>();
      const sent = sentBySession.get(target.sessionId) ?? 0;
      const tags = await storedTags(url, target);
      const seen = new Map<string, number>();
      for (const tag of tags) seen.set(tag, (seen.get(tag) ?? 0) + 1);
      check.acked += acked.size;
      check.sent += sent;
      check.stored += tags.length;
      for (const tag of acked) if (!seen.has(tag)) check.lost += 1;
      for (const [tag, n] of seen) {
        check.duplicates += n - 1;
        if (!acked.has(tag)) check.storedUnacked += 1;
      }
      if (tags.length !== acked.size) check.sessionsOff += 1;
      if (tags.length > sent) check.sessionsOverSent += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  check.isExactlyOnce = check.lost === 0 && check.duplicates === 0 && check.sessionsOverSent === 0;
  return check;
}
