import { StrataError } from '@strata/core/errors';
import { analyzeText, type ContextResult, type SearchHit } from '@strata/core';
import { pc } from '../format/colors.js';
import { startSpinner, whileWaiting } from '../format/progress.js';
import { storeSession, type ChatState } from './chat-state.js';
import { isAboutTheUser, readProfile } from './profile-question.js';

/** Hits considered for the offline assistant's answer. */
const RELATED_CANDIDATES = 12;

/**
 * One user turn: store it, assemble the context for it, ask the assistant (streamed to
 * `onText` a piece at a time when given), store the model's answer. Offline answers only
 * repeat memory, so they are shown and not stored (they would otherwise come back as
 * recalled turns). Returns the reply and the context it was given.
 */
export async function answerTurn(state: ChatState, text: string, onText?: (piece: string) => void): Promise<{ reply: string; context: ContextResult }> {
  const { memory, assistant } = state;
  const session = await storeSession(state);
  const [stored] = await memory.append(session.id, { role: 'user', content: text });
  // Offline derivation takes milliseconds: let it land so that the answer can use this turn's facts.
  if (assistant.isOffline) await memory.flush();
  const context = await whileWaiting('recalling', memory.getContext(session.id, { query: text, budgetTokens: state.budgetTokens }));
  const related = assistant.isOffline ? await findRelated(state, text, stored?.id) : [];
  const profile = assistant.isOffline && isAboutTheUser(text) ? await readProfile(memory, session.namespace, session.id) : undefined;
  const turn = { message: text, context, related, ...(profile ? { profile } : {}) };
  let reply = '';
  const spinner = assistant.isOffline || onText ? undefined : await startSpinner(`asking ${assistant.label}`);
  try {
    if (onText && assistant.stream) {
      for await (const piece of assistant.stream(turn)) {
        reply += piece;
        onText(piece);
      }
    } else {
      reply = await assistant.reply(turn);
      onText?.(reply);
    }
    spinner?.clear();
  } catch (error) {
    spinner?.clear();
    throw new StrataError('BACKEND_UNAVAILABLE', `the model (${assistant.label}) did not answer: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'Your message is stored. Check STRATA_LLM_BASE_URL / STRATA_LLM_MODEL (strata config), then send it again.',
      cause: error,
    });
  }
  if (!assistant.isOffline) await memory.append(session.id, { role: 'assistant', content: reply });
  return { reply, context };
}

/** One user turn in the terminal chat: answered, then printed. */
export async function runTurn(state: ChatState, text: string): Promise<void> {
  const { reply } = await answerTurn(state, text);
  state.print(`${pc.green('strata>')} ${reply}`);
}

/** Memory sharing at least one search term with the message, facts first, without the message itself. */
async function findRelated(state: ChatState, text: string, messageId: string | undefined): Promise<SearchHit[]> {
  const terms = new Set(analyzeText(text));
  if (!terms.size) return [];
  const hits = await state.memory.search({ namespace: state.session.namespace, query: text, k: RELATED_CANDIDATES });
  // Earlier questions are not answers: recall only statements.
  const isQuestion = (h: SearchHit) => h.kind === 'turn' && h.text.trim().endsWith('?');
  const related = hits.filter((h) => !(messageId && h.messageIds.includes(messageId)) && !isQuestion(h) && analyzeText(h.text).some((t) => terms.has(t)));
  return [...related.filter((h) => h.kind === 'fact'), ...related.filter((h) => h.kind !== 'fact')];
}
