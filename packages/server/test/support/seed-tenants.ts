import type { Fact, Memory, MessageInput, Session, StoredMessage } from '@strata/core';
import { HOLD_MARK } from './held-extractor.js';

/** What one namespace holds after seeding: its sessions, their messages and its facts. */
export interface TenantData {
  namespace: string;
  sessions: Session[];
  messages: StoredMessage[];
  facts: Fact[];
}

/** The seeded namespaces: acme (tenant A), globex (tenant B), and team/a, team/b, teamx for prefix keys. */
export interface SeededTenants {
  acme: TenantData;
  globex: TenantData;
  teamA: TenantData;
  teamB: TenantData;
  teamx: TenantData;
  /** Acme's session whose fact extraction fails for good: it stays in `memory.pending()`. */
  acmeHeld: Session;
}

/** The made-up words seeded in each namespace (places, hobbies, titles). */
const MADE_UP_WORDS: Record<string, string[]> = {
  acme: ['Brackenholt', 'marzipanology', 'Vellichor', 'zorbing', HOLD_MARK, 'Quillfeather'],
  globex: ['Osterfell', 'kitesurfing'],
  'team/a': ['Tamsworth', 'origami'],
  'team/b': ['Pellinor', 'bouldering'],
  teamx: ['Xandoria', 'glassblowing'],
};

const turns = (place: string, hobby: string): MessageInput[] => [
  { role: 'user', content: `I live in ${place}.` },
  { role: 'assistant', content: `${place} sounds lovely.` },
  { role: 'user', content: `I love ${hobby}.` },
  { role: 'assistant', content: `${hobby} it is, then.` },
];

async function seedNamespace(memory: Memory, namespace: string, title: string, conversations: MessageInput[][]): Promise<Session[]> {
  const sessions: Session[] = [];
  for (const conversation of conversations) {
    const session = await memory.sessions.create({ namespace, title, metadata: { owner: `${title} owner` } });
    await memory.append(session.id, conversation);
    sessions.push(session);
  }
  return sessions;
}

/** Reads back what a namespace holds now, through the memory (not the server). */
export async function readTenant(memory: Memory, namespace: string): Promise<TenantData> {
  const sessions = await memory.sessions.list({ namespace, limit: 10_000 });
  const messages = (await Promise.all(sessions.map((s) => memory.messages(s.id)))).flat();
  const facts = await memory.facts.list({ namespace, includeSuperseded: true });
  return { namespace, sessions, messages, facts };
}

/**
 * Seeds the tenants with sessions, messages and (after a flush) facts. Every place and hobby
 * is a made-up word, so that finding one in an answer means that tenant's data leaked.
 */
export async function seedTenants(memory: Memory): Promise<SeededTenants> {
  await seedNamespace(memory, 'acme', 'Quillfeather roadmap', [turns('Brackenholt', 'marzipanology'), turns('Vellichor', 'zorbing')]);
  const [acmeHeld] = await seedNamespace(memory, 'acme', 'Quillfeather held', [[{ role: 'user', content: `I live in ${HOLD_MARK}.` }]]);
  await seedNamespace(memory, 'globex', 'Osterfell ledger', [turns('Osterfell', 'kitesurfing')]);
  await seedNamespace(memory, 'team/a', 'Tamsworth notes', [turns('Tamsworth', 'origami')]);
  await seedNamespace(memory, 'team/b', 'Pellinor notes', [turns('Pellinor', 'bouldering')]);
  await seedNamespace(memory, 'teamx', 'Xandoria notes', [turns('Xandoria', 'glassblowing')]);
  await memory.flush();
  const [acme, globex, teamA, teamB, teamx] = await Promise.all(['acme', 'globex', 'team/a', 'team/b', 'teamx'].map((ns) => readTenant(memory, ns)));
  return { acme: acme!, globex: globex!, teamA: teamA!, teamB: teamB!, teamx: teamx!, acmeHeld: acmeHeld! };
}

/**
 * The strings of a tenant that must never reach another tenant or an anonymous caller: the
 * namespace, ids of sessions, messages and facts, titles, contents, fact texts and the made-up words.
 */
export function secretsOf(tenant: TenantData): string[] {
  const words = new Set<string>([tenant.namespace]);
  for (const s of tenant.sessions) for (const w of [s.id, s.title ?? '']) words.add(w);
  for (const m of tenant.messages) for (const w of [m.id, m.content]) words.add(w);
  for (const f of tenant.facts) for (const w of [f.id, f.text]) words.add(w);
  for (const w of MADE_UP_WORDS[tenant.namespace] ?? []) words.add(w);
  words.delete('');
  return [...words];
}
