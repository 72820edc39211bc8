import { analyzeText, type Fact, type Memory } from '@strata/core';

/** Words of asking what memory holds, as strata's analyzer stems them: they name no subject. */
const ABOUT_MEMORY = new Set(analyzeText('remember remembered recall know knew memory memories stored saved learned tell anything everything something'));
const SELF = /\b(me|myself|i)\b/i;
/** Asking what memory holds (some of these are stop words, so the raw words are read). */
const ASKING = /\b(remember|recall|know|knew|memory|memories|stored?|saved?|learn(?:ed|t)?|tell)\b/i;
const PROFILE_FACTS = 8;
const RECENT_SESSIONS = 3;
const TOPICS_PER_SESSION = 3;

/**
 * True for a question about the user in general ("what do you remember about me?", "what do
 * you know about me", "who am I?"): once the words of asking about memory are set aside, no
 * word is left to search for, so it is answered with the profile instead of search hits.
 */
export function isAboutTheUser(text: string): boolean {
  const terms = analyzeText(text);
  return terms.every((t) => ABOUT_MEMORY.has(t)) && SELF.test(text) && (ASKING.test(text) || /\bwho am i\b/i.test(text));
}

/** What the offline assistant tells about the user: current facts, and the topics of recent sessions. */
export interface UserProfile {
  facts: Fact[];
  sessions: { title: string; topics: string[] }[];
}

/** The namespace's current facts (newest first) and its latest sessions with their topics, the current one excluded. */
export async function readProfile(memory: Memory, namespace: string, currentSessionId: string): Promise<UserProfile> {
  const facts = (await memory.facts.list({ namespace })).sort((a, b) => b.validFrom - a.validFrom).slice(0, PROFILE_FACTS);
  const recent = (await memory.sessions.list({ namespace, limit: RECENT_SESSIONS + 1 })).filter((s) => s.id !== currentSessionId).slice(0, RECENT_SESSIONS);
  const sessions = await Promise.all(
    recent.map(async (s) => ({
      title: s.title ?? s.id,
      topics: (await memory.topics.list(s.id))
        .sort((a, b) => b.lastActiveAt - a.lastActiveAt)
        .slice(0, TOPICS_PER_SESSION)
        .map((t) => t.title),
    })),
  );
  return { facts, sessions: sessions.filter((s) => s.topics.length > 0) };
}
