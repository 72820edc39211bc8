import type { MessageInput } from '@strata/core';

const DAY = 86_400_000;
/** The demo's story starts on a fixed date, so its dates and facts are the same every run. */
export const STORY_START = Date.UTC(2026, 9, 5, 18, 0, 0);

const at = (day: number, minute: number) => STORY_START + day * DAY + minute * 60_000;

/** Session 1: a first conversation with durable facts among small talk. */
export const FIRST_SESSION: MessageInput[] = [
  ['user', 'Hi! My name is Maya.'],
  ['assistant', 'Nice to meet you, Maya. How can I help today?'],
  ['user', 'I live in Lisbon and I work as a data engineer at Nimbus.'],
  ['assistant', 'Lisbon is lovely. Data engineering keeps you busy, I imagine.'],
  ['user', 'It does. I love hiking on weekends to clear my head.'],
  ['assistant', 'Hiking is a great way to unwind. Any favourite trails?'],
  ['user', 'The coastal trail in Sintra is my favourite.'],
  ['assistant', 'Sintra has beautiful views over the Atlantic.'],
  ['user', 'My sister Ana is visiting next Friday, we might go hiking together.'],
  ['assistant', 'That sounds like a great plan for her visit.'],
  ['user', 'I hate crowded trails though, so we will start early.'],
  ['assistant', 'Starting early is smart: cooler and quieter.'],
  ['user', 'Work has been hectic, we are migrating our pipelines to a new warehouse.'],
  ['assistant', 'Migrations are stressful. Is it going well?'],
  ['user', 'Mostly. The batch jobs are fine, the streaming part is tricky.'],
  ['assistant', 'Streaming migrations often need a dual-write period.'],
].map(([role, content], i) => ({ role: role as MessageInput['role'], content: content as string, createdAt: at(0, i) }));

/** Session 2, three weeks later: an update that supersedes an earlier fact. */
export const SECOND_SESSION: MessageInput[] = [
  ['user', 'Hello again! Big news: I moved to Porto last week.'],
  ['assistant', 'Congratulations on the move, Maya! How is Porto treating you?'],
  ['user', 'Great so far. The river views are amazing.'],
  ['assistant', 'The Douro at sunset is hard to beat.'],
].map(([role, content], i) => ({ role: role as MessageInput['role'], content: content as string, createdAt: at(21, i) }));

/** The question the demo assembles a context for. */
export const DEMO_QUESTION: MessageInput = {
  role: 'user',
  content: 'My sister wants to go hiking again. Which trail did I say I liked, and where do I live now?',
  createdAt: at(21, 10),
};
