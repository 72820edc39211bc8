import type { MessageInput } from '../src/domain/message.js';

/** Deterministic chatter, with facts planted at known turns, for lifecycle tests. */
const TOPICS = [
  'the weather has been grey all week',
  'I watched a documentary about octopuses',
  'the train was late again this morning',
  'we talked about renovating the kitchen',
  'my team shipped the quarterly report',
  'I tried a new recipe with lentils',
  'the football match went to penalties',
  'I am reading a novel about a lighthouse keeper',
  'the neighbours adopted a very loud parrot',
  'I finally fixed the squeaky bicycle brake',
];

export interface Planted {
  session: number;
  turn: number;
  text: string;
}

export const START = Date.UTC(2026, 9, 1, 9, 0, 0);
export const MINUTE = 60_000;

/** The user turn at `turn` (even turns are the user's), with planted statements. */
export function scriptTurn(turn: number, session: number, planted: Planted[]): MessageInput {
  const createdAt = START + (session * 1000 + turn) * MINUTE;
  const plant = planted.find((p) => p.session === session && p.turn === turn);
  if (turn % 2 === 1) {
    return { role: 'assistant', content: `Thanks for sharing. What else happened after that? (${session}-${turn})`, createdAt };
  }
  const topic = TOPICS[(turn / 2 + session * 3) % TOPICS.length];
  return { role: 'user', content: plant ? plant.text : `Today ${topic}. Entry ${session}-${turn}.`, createdAt };
}
