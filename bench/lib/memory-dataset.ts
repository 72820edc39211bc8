// Kept in one file: one generated dataset (sessions, turns, the facts they state), built and checked in one place.
import { ConversationGenerator, seededRandom, type Random } from './conversation-generator.js';
import { ASSISTANT_TEMPLATES, USER_TEMPLATES } from './conversation-vocabulary.js';
import { CITIES, COMPANIES, EVENTS, JOBS, OUTINGS, PEOPLE, PET_NAMES, RELATIONS } from './dataset-vocabulary.js';

/**
 * A deterministic long-memory data set: per persona, many sessions of chatter between a user
 * and an assistant, with planted facts, later updates that supersede some of them, events
 * told with relative dates ("last Tuesday", "in two weeks"), facts whose answer needs two
 * turns from different sessions, and questions with the ids of their evidence turns.
 */

export type QuestionType = 'single-hop' | 'update' | 'temporal' | 'multi-hop';
export const QUESTION_TYPES: readonly QuestionType[] = ['single-hop', 'update', 'temporal', 'multi-hop'];

export interface DatasetTurn {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** Epoch ms: turns of a session are a minute apart, sessions days apart. */
  createdAt: number;
}

export interface DatasetSession {
  id: string;
  turns: DatasetTurn[];
}

export interface DatasetQuestion {
  id: string;
  type: QuestionType;
  text: string;
  /** Turns that hold the answer; all of them are needed (multi-hop has two). */
  evidenceIds: string[];
  answer: string;
}

export interface Persona {
  namespace: string;
  sessions: DatasetSession[];
  questions: DatasetQuestion[];
  /** When the questions are asked: a day after the last session. */
  askedAt: number;
}

export interface DatasetOptions {
  seed: number;
  personas: number;
  sessionsPerPersona: number;
  /** Chatter turns per session, around the planted ones. */
  turnsPerSession: number;
}

const DAY_MS = 86_400_000;
/** Monday 2025-01-06, 09:00 UTC. */
const START = Date.UTC(2025, 0, 6, 9);
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Tuesday, March 4" (UTC), how the questions name a day. */
export function dayName(ms: number): string {
  const d = new Date(ms);
  return `${WEEKDAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** `count` distinct items in a seeded order. */
function distinct<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}

/** A planted user turn: where it goes and, once placed, the questions it supports. */
interface Plant {
  session: number;
  text: string;
  /** Called with the stored turn's id and time once placed. */
  placed?: (id: string, at: number) => void;
}

/** Builds the plants of one persona and collects the questions as turns get their ids. */
class PersonaPlan {
  readonly plants: Plant[] = [];
  readonly questions: DatasetQuestion[] = [];
  private readonly ids = new Map<string, string>();

  constructor(
    private readonly random: Random,
    private readonly sessions: number,
    private readonly prefix: string,
  ) {}

  /** A session index in [from, to) of the persona's sessions (fractions of the whole). */
  at(from: number, to: number): number {
    const lo = Math.floor(from * this.sessions);
    const hi = Math.max(lo + 1, Math.floor(to * this.sessions));
    return Math.min(this.sessions - 1, lo + Math.floor(this.random() * (hi - lo)));
  }

  plant(key: string, session: number, text: string, placed?: (at: number) => void): void {
    this.plants.push({
      session,
      text,
      placed: (id, at) => {
        this.ids.set(key, id);
        placed?.(at);
      },
    });
  }

  ask(type: QuestionType, text: string, evidence: string[], answer: string): void {
    this.questions.push({ id: `${this.prefix}-q${this.questions.length + 1}`, type, text, evidenceIds: evidence, answer });
  }

  /** Resolves evidence keys to turn ids (after every plant is placed). */
  resolve(): DatasetQuestion[] {
    return this.questions.map((q) => ({ ...q, evidenceIds: q.evidenceIds.map((key) => this.ids.get(key) as string) }));
  }
}

function planPersona(random: Random, plan: PersonaPlan): void {
  const [pet, relationPerson] = [pick(random, PET_NAMES), distinct(random, PEOPLE, 1)[0] as string];
  const relation = pick(random, RELATIONS);
  const [oldCity, newCity, personCity] = distinct(random, CITIES, 3) as [string, string, string];
  const [oldJob, newJob] = distinct(random, JOBS, 2) as [string, string];
  const [oldCompany, newCompany] = distinct(random, COMPANIES, 2) as [string, string];
  // single-hop: said once, asked at the end
  plan.plant('pet', plan.at(0, 0.5), `My dog is called ${pet}, she is a very calm beagle.`);
  plan.ask('single-hop', "What is my dog's name?", ['pet'], pet);
  // update: the newer statement supersedes the older; only the newer is evidence
  plan.plant('city-old', plan.at(0, 0.3), `I live in ${oldCity} these days, close to the river.`);
  plan.plant('city-new', plan.at(0.6, 0.9), `Big news: I moved from ${oldCity} to ${newCity} last week, I live in ${newCity} now.`);
  plan.ask('update', 'Which city do I live in now?', ['city-new'], newCity);
  plan.plant('job-old', plan.at(0, 0.3), `I work as ${oldJob} at ${oldCompany}.`);
  plan.plant('job-new', plan.at(0.5, 0.9), `I quit ${oldCompany}; I work as ${newJob} at ${newCompany} now.`);
  plan.ask('update', 'What is my job now, and where do I work?', ['job-new'], `${newJob} at ${newCompany}`);
  // multi-hop: who the relation is (early), where that person lives (later, without the relation)
  plan.plant('rel-name', plan.at(0, 0.4), `My ${relation} is called ${relationPerson}.`);
  plan.plant('rel-city', plan.at(0.4, 1), `${relationPerson} just moved to ${personCity} for a new job.`);
  plan.ask('multi-hop', `Which city does my ${relation} live in?`, ['rel-name', 'rel-city'], personCity);
  plantTemporal(random, plan);
}

/** Same kind of outing on different days (only the date tells them apart), and a future event. */
function plantTemporal(random: Random, plan: PersonaPlan): void {
  const outing = pick(random, OUTINGS);
  const places = distinct(random, CITIES, 3);
  const asked = Math.floor(random() * places.length);
  places.forEach((place, i) => {
    const key = `outing-${i}`;
    // "last <weekday>": the outing happened on the latest such weekday before the session day
    plan.plant(key, plan.at(i / places.length, (i + 1) / places.length), `Last Saturday I went ${outing} near ${place}, it was great.`, (at) => {
      if (i !== asked) return;
      const day = new Date(at).getUTCDay();
      const back = (day - 6 + 7) % 7 || 7;
      plan.ask('temporal', `Where did I go ${outing} on ${dayName(at - back * DAY_MS)}?`, [key], place);
    });
  });
  const event = pick(random, EVENTS);
  plan.plant('event', plan.at(0.2, 0.8), `My ${event} is in two weeks, I am a bit nervous about it.`, (at) => {
    plan.ask('temporal', `What do I have on ${dayName(at + 14 * DAY_MS)}?`, ['event'], event);
  });
}

/**
 * Chatter states nothing about the slots the questions ask for (where the user lives, works,
 * what pet they have, who their relatives are): a later distractor saying "I work as a chef"
 * would silently make a planted update wrong.
 */
const ASSERTS_A_SLOT = /\{(?:job|pet|relation)\}|moved to|live in|lives in|live\b|work as|quit|new role/i;
const DISTRACTORS = {
  user: USER_TEMPLATES.filter((t) => !ASSERTS_A_SLOT.test(t)),
  assistant: ASSISTANT_TEMPLATES.filter((t) => !ASSERTS_A_SLOT.test(t)),
};

const ACKS = ['Noted, thanks for telling me.', 'Got it, I will remember that.', 'Thanks, that is good to know.', 'Understood.'];

/** One persona: sessions of chatter with the plants spread inside them. */
function buildPersona(options: DatasetOptions, index: number): Persona {
  const random = seededRandom(options.seed * 1009 + index);
  const chat = new ConversationGenerator(options.seed * 7919 + index, DISTRACTORS);
  const prefix = `p${index + 1}`;
  const plan = new PersonaPlan(random, options.sessionsPerPersona, prefix);
  planPersona(random, plan);
  const sessions: DatasetSession[] = [];
  let day = START + index * DAY_MS;
  for (let s = 0; s < options.sessionsPerPersona; s++) {
    day += (2 + Math.floor(random() * 3)) * DAY_MS;
    const turns: DatasetTurn[] = [];
    const add = (role: DatasetTurn['role'], content: string): DatasetTurn => {
      const turn = { id: `${prefix}-s${s + 1}-t${turns.length + 1}`, role, content, createdAt: day + turns.length * 60_000 };
      turns.push(turn);
      return turn;
    };
    const plants = plan.plants.filter((p) => p.session === s);
    const slots = new Set(plants.map(() => Math.floor(random() * (options.turnsPerSession / 2))));
    let planted = 0;
    for (let pair = 0; pair < options.turnsPerSession / 2; pair++) {
      while (slots.has(pair) && planted < plants.length) {
        const plant = plants[planted++] as Plant;
        const turn = add('user', plant.text);
        plant.placed?.(turn.id, turn.createdAt);
        add('assistant', pick(random, ACKS));
        slots.delete(pair);
      }
      add('user', chat.next().content);
      add('assistant', chat.next().content);
    }
    for (; planted < plants.length; planted++) {
      const plant = plants[planted] as Plant;
      const turn = add('user', plant.text);
      plant.placed?.(turn.id, turn.createdAt);
      add('assistant', pick(random, ACKS));
    }
    sessions.push({ id: `${prefix}-s${s + 1}`, turns });
  }
  return { namespace: `persona-${index + 1}`, sessions, questions: plan.resolve(), askedAt: day + DAY_MS };
}

/**
 * The whole data set; the same options always yield the same personas, turns and questions.
 * @example
 * const personas = generateDataset({ seed: 7, personas: 10, sessionsPerPersona: 20, turnsPerSession: 30 });
 */
export function generateDataset(options: DatasetOptions): Persona[] {
  return Array.from({ length: options.personas }, (_, i) => buildPersona(options, i));
}
