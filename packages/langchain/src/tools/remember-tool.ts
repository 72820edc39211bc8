import { tool, type ToolRunnableConfig } from '@langchain/core/tools';
import { z } from 'zod';
import type { Fact } from '@strata/core';
import { MEMORY_NOTE_KEY, memoryToolScope, type MemoryToolScope, type MemoryToolsOptions } from './memory-tool-scope.js';

const rememberSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1)
    .describe(
      "The note: one self-contained statement, written as the user would say it about themselves (first person, e.g. 'I moved to Lisbon in May 2025', 'My sister is called Mia'), so that it is filed as a fact about the user.",
    ),
});

/** What remember stored: the note's message id and session, and the facts strata extracted from it. */
export interface RememberArtifact {
  messageId: string;
  sessionId: string;
  facts: Pick<Fact, 'id' | 'subject' | 'predicate' | 'object' | 'text'>[];
}

/**
 * The `remember` tool: stores a note as a turn of the run's notes session (see
 * {@link MemoryToolsOptions.sessionId}), marked with `metadata.strataMemoryNote`, waits for
 * its derivation (`memory.flush()`), and returns the note's id with the facts strata
 * extracted from it (those whose `sourceMessageIds` name it); it says so when there are
 * none (the note can still be recalled by its words). The note is a user turn: strata reads
 * it as said on the user's behalf. Artifact: {@link RememberArtifact}.
 * @example
 * const remember = createRememberTool({ memory, namespace: 'user-42' });
 * await remember.invoke({ text: 'I live in Lisbon.' }); // 'Remembered as msg_…. strata filed 1 fact: …'
 */
export function createRememberTool(options: MemoryToolsOptions) {
  return rememberTool(memoryToolScope(options));
}

export function rememberTool(scope: MemoryToolScope) {
  return tool(
    async ({ text }, config: ToolRunnableConfig): Promise<[string, RememberArtifact]> => {
      const { memory } = scope;
      const namespace = scope.namespaceOf(config);
      const sessionId = await scope.notesSessionOf(config, namespace);
      const toolCallId = config.toolCall?.id;
      const [note] = await memory.append(sessionId, { role: 'user', content: text, metadata: { [MEMORY_NOTE_KEY]: { tool: 'remember', ...(toolCallId ? { toolCallId } : {}) } } });
      if (!note) throw new Error('memory.append returned no message');
      await memory.flush();
      const facts = (await memory.facts.list({ namespace })).filter((f) => f.sourceMessageIds.includes(note.id));
      const artifact = { messageId: note.id, sessionId, facts: facts.map(({ id, subject, predicate, object, text: factText }) => ({ id, subject, predicate, object, text: factText })) };
      return [rememberReport(note.id, facts), artifact];
    },
    {
      name: 'remember',
      description: 'Store a note in long-term memory, to be recalled in later conversations: a fact about the user, a preference, a decision. Returns the note id and the facts filed from it.',
      schema: rememberSchema,
      responseFormat: 'content_and_artifact',
    },
  );
}

function rememberReport(id: string, facts: readonly Fact[]): string {
  if (!facts.length) return `Remembered as ${id}. No fact was filed from it: the note is stored and recall finds it by its words.`;
  return `Remembered as ${id}. strata filed ${facts.length === 1 ? '1 fact' : `${facts.length} facts`} from it:\n${facts.map((f) => `- [fact ${f.id}] ${f.text}`).join('\n')}`;
}
