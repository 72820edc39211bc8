import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/** A turn as the LLM models render it: `[#seq Weekday YYYY-MM-DD HH:MM UTC] speaker: content`. */
export interface PromptTurn {
  seq: number;
  weekday: string;
  date: string;
  /** As rendered: `Ana (user)`, or `user` for a speaker without a name. */
  speaker: string;
  role: string;
  name: string | undefined;
  content: string;
}

export interface FakeCall {
  tool: string;
  prompt: string;
  turns: PromptTurn[];
}

export type FakeAnswer = (call: FakeCall) => Record<string, unknown>;

interface FakeCallOptions extends BaseChatModelCallOptions {
  tools?: { function?: { name?: string }; name?: string }[];
}

const TURN_LINE = /^\[#(\d+) (\w+) (\d{4}-\d{2}-\d{2}) \d{2}:\d{2} UTC\] ([^:]+): (.*)$/;

export function parseTurns(prompt: string): PromptTurn[] {
  return prompt.split('\n').flatMap((line) => {
    const m = TURN_LINE.exec(line);
    if (!m) return [];
    const named = /^(.+) \((\w+)\)$/.exec(m[4]!);
    const role = named ? named[2]! : m[4]!.split(' ')[0]!;
    return [{ seq: Number(m[1]), weekday: m[2]!, date: m[3]!, speaker: m[4]!, role, name: named?.[1], content: m[5]! }];
  });
}

/**
 * A chat model that answers every structured-output request with a tool call computed by
 * `answer` from the prompt, and reports usage (chars / 4) like an OpenAI endpoint. Set
 * `failure` to make every call throw it (endpoint down, bad gateway...).
 */
export class ToolCallingFake extends BaseChatModel<FakeCallOptions> {
  readonly calls: (FakeCall & { inputTokens: number; outputTokens: number })[] = [];
  failure: Error | undefined;
  /** With `failure` set: how many more calls fail before it clears (undefined: all of them). */
  failuresLeft: number | undefined;
  failedCalls = 0;

  constructor(private readonly answer: FakeAnswer) {
    super({});
  }

  _llmType(): string {
    return 'tool-calling-fake';
  }

  override bindTools(tools: BindToolsInput[]) {
    return this.withConfig({ tools: tools as FakeCallOptions['tools'] });
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    if (this.failure) {
      const error = this.failure;
      this.failedCalls += 1;
      if (this.failuresLeft !== undefined && --this.failuresLeft <= 0) this.failure = undefined;
      throw error;
    }
    const tool = options.tools?.[0]?.function?.name ?? options.tools?.[0]?.name ?? '';
    const prompt = messages.map((m) => `${m.type}: ${m.text}`).join('\n');
    const call = { tool, prompt, turns: parseTurns(prompt) };
    const args = this.answer(call);
    const inputTokens = Math.ceil(prompt.length / 4);
    const outputTokens = Math.ceil(JSON.stringify(args).length / 4);
    this.calls.push({ ...call, inputTokens, outputTokens });
    const message = new AIMessage({
      content: '',
      tool_calls: [{ id: `call_${this.calls.length}`, name: tool, args, type: 'tool_call' }],
      usage_metadata: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    });
    return { generations: [{ text: '', message }] };
  }

  /** Sum of the usage reported so far. */
  usage(): { inputTokens: number; outputTokens: number; calls: number } {
    return this.calls.reduce((sum, c) => ({ inputTokens: sum.inputTokens + c.inputTokens, outputTokens: sum.outputTokens + c.outputTokens, calls: sum.calls + 1 }), {
      inputTokens: 0,
      outputTokens: 0,
      calls: 0,
    });
  }
}

/** An error shaped like the OpenAI client's when nothing listens on the port. */
export function connectionRefused(): Error {
  return Object.assign(new Error('Connection error.'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** What a capable model does with "next Friday" said on a given date. */
export function nextWeekday(date: string, weekday: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const target = WEEKDAYS.findIndex((w) => w.toLowerCase() === weekday.toLowerCase());
  const ahead = (target - d.getUTCDay() + 7) % 7 || 7;
  return new Date(d.getTime() + ahead * 86_400_000).toISOString().slice(0, 10);
}

interface FactArgs {
  turn: number;
  subject: string;
  predicate: string;
  object: string;
  text: string;
  confidence: number;
}

/** A person speaking in the turn: a user, or a named assistant (one side of a dialogue). */
function isPerson(turn: PromptTurn): boolean {
  return turn.role === 'user' || (turn.role === 'assistant' && turn.name !== undefined);
}

/**
 * A rule-based stand-in for an LLM: facts from a few phrasings, naming the speaker (or 'User')
 * as the prompt asks; its first subject is left as 'I' to exercise the extractor's resolution.
 * Summaries name their turns and speakers.
 */
export const ruleBasedAnswer: FakeAnswer = (call) => {
  if (call.tool === 'summary') return { summary: `LLM summary of #${call.turns.map((t) => t.seq).join(',')}: ${call.turns.map((t) => `${t.name ?? t.role} said "${t.content}"`).join(' ')}` };
  if (call.tool === 'synopsis') return { synopsis: `LLM synopsis: ${call.prompt.split('\n').filter((l) => /^\d+\. /.test(l)).length} summaries folded.` };
  const facts: FactArgs[] = [];
  for (const turn of call.turns) {
    if (!isPerson(turn)) continue;
    const who = turn.name ?? 'User';
    const subject = turn.name?.toLowerCase() ?? 'user';
    const live = /\bI (?:live|moved) (?:in|to) ([A-Z][a-z]+)/.exec(turn.content);
    if (live) facts.push({ turn: turn.seq, subject: 'I', predicate: 'lives_in', object: live[1]!, text: `${who} lives in ${live[1]}.`, confidence: 0.9 });
    const work = /\bI (?:work at|joined) ([A-Z][A-Za-z]+)/.exec(turn.content);
    if (work) facts.push({ turn: turn.seq, subject, predicate: 'employer', object: work[1]!, text: `${who} works at ${work[1]}.`, confidence: 0.9 });
    const sister = /\bmy sister(?: is called|'s name is| is) ([A-Z][a-z]+)/i.exec(turn.content);
    if (sister) facts.push({ turn: turn.seq, subject, predicate: 'sister_name', object: sister[1]!, text: `${who}'s sister is ${sister[1]}.`, confidence: 0.9 });
    const trip = /\bflying to ([A-Z][a-z]+) next (\w+day)/.exec(turn.content);
    if (trip) {
      const day = nextWeekday(turn.date, trip[2]!);
      facts.push({ turn: turn.seq, subject, predicate: 'trip', object: `${trip[1]} on ${day}`, text: `${who} flies to ${trip[1]} on ${day}.`, confidence: 0.8 });
    }
  }
  return { facts };
};
