import type { ItemKind, ManifestItem, Tier } from '../../domain/retrieval.js';

/** `profile`: current facts about the people, offered to every context whatever the query. */
export type Section = 'working' | 'profile' | 'facts' | 'recall' | 'recent';

/** A candidate for the context, rendered and costed. */
export interface ContextItem {
  kind: ItemKind;
  id: string;
  tier: Tier;
  section: Section;
  score?: number;
  /** The text as it will appear (a line of the memory message, or a turn's content). */
  tokens: number;
  /** Output order within its section (seq or time). */
  order: number;
  sourceMessageIds: string[];
  /** Why it is a candidate, e.g. 'query match', 'recent turn'. */
  reason: string;
  /** For recent turns: a tool result that must not lead the window. */
  isToolResult?: boolean;
}

/** Why a turn of the current turn is in even though the budget could not hold it. */
export const OVER_BUDGET_REASON = 'kept over the budget: the current turn is always sent (the budget cannot hold it; everything else was cut first)';

export interface AssembleInput {
  budgetTokens: number;
  shares: Record<Section, number>;
  /** Candidates per section, in priority order (most wanted first; recent: newest first). */
  candidates: Record<Section, ContextItem[]>;
  /** Tokens charged once when the memory message (synopsis/facts/recall) is non-empty. */
  memoryOverhead: number;
  /** Tokens charged once per non-empty memory section (its heading). */
  headingTokens: Record<Exclude<Section, 'recent'>, number>;
  /**
   * Recent turns that are always in, whatever they cost: the current turn (the newest user
   * turn and the tool calls and results after it), newest first. Not repeated in `candidates.recent`.
   */
  pinned?: ContextItem[];
  /** Tokens spent before anything is packed (e.g. the app's own system prompt). */
  fixedTokens?: number;
}

export interface Assembly {
  /** Included items per section, in output order. */
  included: Record<Section, ContextItem[]>;
  manifest: ManifestItem[];
  /** Tokens spent by the plan (items + overheads). */
  tokens: number;
  /** The pinned turns and fixed tokens alone exceed the budget (they are sent anyway). */
  overBudget: boolean;
}

const FIRST_PASS: Section[] = ['recent', 'profile', 'facts', 'working', 'recall'];
const FLOW_ORDER: Section[] = ['recent', 'facts', 'recall', 'profile', 'working'];

/**
 * Packs candidates into a token budget. The fixed tokens and the pinned turns come first,
 * whatever they cost. Each section then gets its share of what is left; the unused share
 * flows on, in FLOW_ORDER, to sections that still have candidates. Recent turns are a
 * contiguous suffix of the conversation (newest first, stop at the first that does not fit)
 * and never start with a tool result. Pure.
 */
export function assembleContext(input: AssembleInput): Assembly {
  const state = new PackState(input);
  for (const section of FIRST_PASS) state.pack(section, Math.floor(input.shares[section] * input.budgetTokens));
  for (const section of FLOW_ORDER) state.pack(section, input.budgetTokens - state.spent);
  state.trimLeadingToolResults();
  return state.result();
}

class PackState {
  spent = 0;
  private readonly taken = new Map<Section, ContextItem[]>();
  private readonly stopped = new Set<Section>();
  private readonly cut = new Map<string, string>();

  private readonly pinned: Set<ContextItem>;
  readonly overBudget: boolean;

  constructor(private readonly input: AssembleInput) {
    const pinned = input.pinned ?? [];
    this.pinned = new Set(pinned);
    this.taken.set('recent', [...pinned]);
    this.spent = (input.fixedTokens ?? 0) + pinned.reduce((sum, item) => sum + item.tokens, 0);
    this.overBudget = this.spent > input.budgetTokens;
    if (this.overBudget) this.stopped.add('recent');
  }

  pack(section: Section, allowance: number): void {
    const taken = this.taken.get(section) ?? [];
    this.taken.set(section, taken);
    let passUsed = 0;
    for (const item of this.input.candidates[section]) {
      if (this.stopped.has(section)) break;
      if (taken.includes(item)) continue;
      const cost = item.tokens + this.overheadFor(section);
      if (passUsed + cost <= allowance && this.spent + cost <= this.input.budgetTokens) {
        taken.push(item);
        passUsed += cost;
        this.spent += cost;
      } else if (section === 'recent') {
        // recent turns stay contiguous: once one does not fit, older ones may not jump in;
        // a later pass with more budget may go on from here unless the budget itself is out
        if (this.spent + cost > this.input.budgetTokens) this.stopped.add(section);
        break;
      }
    }
  }

  private overheadFor(section: Section): number {
    if (section === 'recent') return 0;
    let cost = 0;
    const memoryEmpty = (['working', 'profile', 'facts', 'recall'] as const).every((s) => (this.taken.get(s) ?? []).length === 0);
    if (memoryEmpty) cost += this.input.memoryOverhead;
    if ((this.taken.get(section) ?? []).length === 0) cost += this.input.headingTokens[section];
    return cost;
  }

  trimLeadingToolResults(): void {
    const recent = this.taken.get('recent') ?? [];
    while (recent.length > 0 && recent[recent.length - 1]?.isToolResult && !this.pinned.has(recent[recent.length - 1] as ContextItem)) {
      const dropped = recent.pop();
      if (!dropped) break;
      this.spent -= dropped.tokens;
      this.cut.set(dropped.id, 'cut: a tool result whose tool call did not fit the budget');
    }
  }

  result(): Assembly {
    const included = {} as Record<Section, ContextItem[]>;
    const manifest: ManifestItem[] = [];
    for (const section of ['working', 'profile', 'facts', 'recall', 'recent'] as const) {
      const taken = new Set(this.taken.get(section) ?? []);
      included[section] = [...taken].sort((a, b) => a.order - b.order);
      const candidates = section === 'recent' ? [...this.pinned, ...this.input.candidates.recent] : this.input.candidates[section];
      for (const item of candidates) {
        const isIn = taken.has(item);
        manifest.push({
          kind: item.kind,
          id: item.id,
          tier: item.tier,
          ...(item.score === undefined ? {} : { score: item.score }),
          tokens: item.tokens,
          included: isIn,
          reason: this.overBudget && this.pinned.has(item) ? OVER_BUDGET_REASON : isIn ? item.reason : (this.cut.get(item.id) ?? `cut: over the token budget (${item.reason})`),
          sourceMessageIds: item.sourceMessageIds,
        });
      }
    }
    return { included, manifest, tokens: this.spent, overBudget: this.overBudget };
  }
}
