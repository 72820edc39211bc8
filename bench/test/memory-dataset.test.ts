import { describe, expect, it } from 'vitest';
import { dayName, generateDataset, QUESTION_TYPES } from '../lib/memory-dataset.js';

const OPTIONS = { seed: 11, personas: 3, sessionsPerPersona: 12, turnsPerSession: 20 };

describe('generateDataset', () => {
  const personas = generateDataset(OPTIONS);

  it('is deterministic: the same options give the same data set', () => {
    expect(generateDataset(OPTIONS)).toEqual(personas);
    expect(generateDataset({ ...OPTIONS, seed: 12 })).not.toEqual(personas);
  });

  it('gives every persona its sessions, chatter around the plants, and every question type', () => {
    for (const persona of personas) {
      expect(persona.sessions).toHaveLength(OPTIONS.sessionsPerPersona);
      for (const session of persona.sessions) expect(session.turns.length).toBeGreaterThanOrEqual(OPTIONS.turnsPerSession);
      expect(new Set(persona.questions.map((q) => q.type))).toEqual(new Set(QUESTION_TYPES));
    }
  });

  it('points every question at turns that exist, are user turns, and state the answer', () => {
    for (const persona of personas) {
      const byId = new Map(persona.sessions.flatMap((s) => s.turns.map((t) => [t.id, t] as const)));
      for (const question of persona.questions) {
        const evidence = question.evidenceIds.map((id) => byId.get(id));
        expect(evidence.every((turn) => turn?.role === 'user')).toBe(true);
        const text = evidence.map((turn) => turn?.content).join(' ');
        // temporal events are stated relatively ("in two weeks"): the answer is the event
        expect(text).toContain(question.answer.split(' at ')[0]);
        expect(question.evidenceIds).toHaveLength(question.type === 'multi-hop' ? 2 : 1);
      }
    }
  });

  it('states an update after what it supersedes, and asks only for the newer one', () => {
    for (const persona of personas) {
      const order = new Map(persona.sessions.flatMap((s) => s.turns.map((t) => [t.id, t.createdAt] as const)));
      const city = persona.questions.find((q) => q.text.startsWith('Which city do I live in now'));
      const newer = persona.sessions.flatMap((s) => s.turns).find((t) => t.content.startsWith('Big news: I moved from'));
      const older = persona.sessions.flatMap((s) => s.turns).find((t) => t.content.startsWith('I live in'));
      expect(city?.evidenceIds).toEqual([newer?.id]);
      expect(order.get(newer?.id ?? '')).toBeGreaterThan(order.get(older?.id ?? '') ?? Infinity);
    }
  });

  it('keeps slot statements out of the chatter: only planted turns say where the user lives or works', () => {
    for (const persona of personas) {
      const stating = persona.sessions.flatMap((s) => s.turns).filter((t) => /\bI (?:live in|work as)\b|moved to/.test(t.content));
      // the five planted ones: old and new city, old and new job, and where the relative moved
      expect(stating.map((t) => t.content.split(' ').slice(0, 2).join(' ')).sort()).toEqual(
        ['Big news:', 'I live', 'I quit', 'I work', `${stating.find((t) => / just moved to /.test(t.content))?.content.split(' ')[0]} just`].sort(),
      );
    }
  });

  it('asks temporal questions about the day of the event', () => {
    const [persona] = generateDataset({ ...OPTIONS, personas: 1 });
    const turns = new Map(persona?.sessions.flatMap((s) => s.turns.map((t) => [t.id, t] as const)));
    for (const question of persona?.questions.filter((q) => q.type === 'temporal') ?? []) {
      const turn = turns.get(question.evidenceIds[0] ?? '');
      if (turn === undefined) throw new Error('temporal evidence missing');
      const day = 86_400_000;
      const expected = turn.content.includes('in two weeks') ? dayName(turn.createdAt + 14 * day) : dayName(turn.createdAt - ((new Date(turn.createdAt).getUTCDay() + 1) % 7 || 7) * day);
      expect(question.text).toContain(expected);
    }
  });
});

describe('dayName', () => {
  it.each([
    [Date.UTC(2025, 0, 6, 9), 'Monday, January 6'],
    [Date.UTC(2025, 2, 4, 23), 'Tuesday, March 4'],
    [Date.UTC(2024, 1, 29), 'Thursday, February 29'],
  ])('%i -> %s', (ms, expected) => {
    expect(dayName(ms)).toBe(expected);
  });
});
