/** A scored turn with where it sits in its session and who said it. */
export interface PlacedTurn {
  id: string;
  sessionId: string;
  seq: number;
  /** The speaker's name, if the turn has one. */
  name?: string | undefined;
}

export interface SpreadOptions {
  /** Share of a hit's score that each turn right before and after it receives (half of it two turns away). */
  neighbourShare: number;
  /** Scores of turns spoken by someone the query names are multiplied by 1 + this. */
  speakerBoost: number;
  /** Lower-cased words of the query, to find the speakers it names. */
  queryWords: ReadonlySet<string>;
}

/**
 * Ranks turns by their own lexical score plus a share of their neighbours' (the answer to a
 * question is usually the reply after it, and the question the turn before), then favours the
 * turns of a speaker the query names ("What did Ana paint?" is answered by Ana's turns, which
 * rarely say "Ana"). On the LoCoMo dev file, plain BM25 over turns indexed with speaker and
 * month ranked 62 % of evidence turns in its top 10; sharing 0.7 with the next turns (0.35 two
 * away) and boosting the named speaker by 0.6 gave 74 % (the defaults in policy.context are
 * measured there too). Pure: `turns` holds the hits and their neighbours, `scores` the lexical
 * score of each turn that spreads.
 */
export function spreadTurnScores(turns: readonly PlacedTurn[], scores: ReadonlyMap<string, number>, options: SpreadOptions): { id: string; score: number }[] {
  // by session, then seq: no key strings built per turn and per neighbour looked up
  const bySession = new Map<string, Map<number, PlacedTurn>>();
  for (const turn of turns) {
    let seqs = bySession.get(turn.sessionId);
    if (seqs === undefined) {
      seqs = new Map();
      bySession.set(turn.sessionId, seqs);
    }
    seqs.set(turn.seq, turn);
  }
  const spread = new Map<string, { turn: PlacedTurn; score: number }>();
  const give = (turn: PlacedTurn, amount: number): void => {
    const entry = spread.get(turn.id);
    if (entry === undefined) spread.set(turn.id, { turn, score: amount });
    else entry.score += amount;
  };
  const giveAt = (seqs: ReadonlyMap<number, PlacedTurn>, seq: number, amount: number): void => {
    const neighbour = seqs.get(seq);
    if (neighbour !== undefined) give(neighbour, amount);
  };
  const near = options.neighbourShare;
  const far = near / 2;
  for (const turn of turns) {
    const own = scores.get(turn.id);
    if (own === undefined) continue;
    give(turn, own);
    if (near <= 0) continue;
    const seqs = bySession.get(turn.sessionId) as Map<number, PlacedTurn>;
    // the turns next to it first, then those two away: sums add up in this order
    giveAt(seqs, turn.seq - 1, own * near);
    giveAt(seqs, turn.seq + 1, own * near);
    giveAt(seqs, turn.seq - 2, own * far);
    giveAt(seqs, turn.seq + 2, own * far);
  }
  const ranked: { id: string; score: number }[] = [];
  for (const [id, { turn, score }] of spread) ranked.push({ id, score: isNamedSpeaker(turn, options.queryWords) ? score * (1 + options.speakerBoost) : score });
  return ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function isNamedSpeaker(turn: PlacedTurn | undefined, queryWords: ReadonlySet<string>): boolean {
  const name = turn?.name?.toLowerCase();
  if (!name) return false;
  return name.split(/\s+/).some((part) => part.length > 1 && queryWords.has(part));
}
