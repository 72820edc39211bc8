import type { SearchHit } from '@strata/core';
import type { AssistantTurn, ChatAssistant } from './assistant.js';
import type { UserProfile } from './profile-question.js';

const MAX_FACTS = 4;
const MAX_RECALL = 3;

/**
 * The assistant when no LLM is configured: it cannot converse, so it says so and shows
 * what memory holds that relates to the message (current facts first, then earlier turns
 * and summaries), which is what a model would have been given.
 */
export class OfflineAssistant implements ChatAssistant {
  readonly label = 'offline (no LLM configured): answers from memory';
  readonly isOffline = true;

  async reply({ related, profile }: AssistantTurn): Promise<string> {
    if (profile) return describeProfile(profile);
    const facts = related.filter((h) => h.kind === 'fact').slice(0, MAX_FACTS);
    const recall = related.filter((h) => h.kind !== 'fact').slice(0, MAX_RECALL);
    if (!facts.length && !recall.length) {
      return "I'm offline (no LLM configured), and I don't remember anything related to that yet. I've stored what you said.";
    }
    const lines = ["I'm offline (no LLM configured). Here is what I remember that relates to this:"];
    for (const fact of facts) lines.push(`  - ${fact.text}`);
    for (const hit of recall) lines.push(`  - ${describeRecall(hit)}`);
    return lines.join('\n');
  }
}

function describeProfile(profile: UserProfile): string {
  if (!profile.facts.length && !profile.sessions.length) {
    return "I'm offline (no LLM configured), and I don't know anything about you yet: tell me about yourself and I'll remember it.";
  }
  const lines = ["I'm offline (no LLM configured). Here is what I remember about you:"];
  for (const fact of profile.facts) lines.push(`  - ${fact.text}`);
  if (profile.sessions.length) {
    lines.push('We last talked about:');
    for (const s of profile.sessions) lines.push(`  - ${s.title}: ${s.topics.join('; ')}`);
  }
  return lines.join('\n');
}

function describeRecall(hit: SearchHit): string {
  const day = new Date(hit.createdAt).toISOString().slice(0, 10);
  const text = hit.text.replace(/\s+/g, ' ');
  const clipped = text.length > 160 ? `${text.slice(0, 159)}…` : text;
  return hit.kind === 'summary' ? `(${day}, summary) ${clipped}` : `(${day}) you said: "${clipped}"`;
}
