import type { TranscriptTurn } from '../../domain/jobs.js';

/**
 * Who a turn's first person is, for facts about them: its speaker's name, else 'user' for a
 * user turn. An assistant turn counts only when it carries a name (a human participant of a
 * two-person dialogue); an unnamed assistant's "I" is the AI, and system or tool turns speak
 * for no one. Undefined when the turn says nothing about a person.
 */
export function speakerOf(turn: TranscriptTurn): string | undefined {
  const name = turn.name?.trim();
  if (turn.role === 'user') return name !== undefined && name.length > 0 ? name : 'user';
  if (turn.role === 'assistant' && name !== undefined && name.length > 0) return name;
  return undefined;
}

/** The unnamed user's name, from the newest of their `name` facts among `facts` (their profile, or facts found earlier in a batch). */
export function userNameIn(facts: readonly { subject: string; predicate: string; object: string }[]): string | undefined {
  return facts.findLast((fact) => fact.subject.toLowerCase() === 'user' && fact.predicate === 'name')?.object;
}
