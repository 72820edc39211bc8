import { describe, expect, it } from 'vitest';
import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { StrataStore } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

const State = Annotation.Root({
  userId: Annotation<string>,
  note: Annotation<string>,
  question: Annotation<string>,
  recalled: Annotation<{ text: string; score: number | undefined }[]>,
});

/** A graph with no model: one node writes a memory to the store, the next searches it. */
function memoryGraph(store: StrataStore) {
  return new StateGraph(State)
    .addNode('remember', async (state, config: LangGraphRunnableConfig) => {
      if (!config.store) throw new Error('the graph was compiled without a store');
      const namespace = ['memories', state.userId];
      const count = (await config.store.search(namespace, { limit: 100 })).length;
      await config.store.put(namespace, `note-${count + 1}`, { text: state.note });
      return {};
    })
    .addNode('recall', async (state, config: LangGraphRunnableConfig) => {
      const hits = (await config.store?.search(['memories', state.userId], { query: state.question })) ?? [];
      return { recalled: hits.map((hit) => ({ text: String(hit.value.text), score: hit.score })) };
    })
    .addEdge(START, 'remember')
    .addEdge('remember', 'recall')
    .addEdge('recall', END)
    .compile({ store });
}

describe('StrataStore in a LangGraph StateGraph (config.store)', () => {
  it('a node puts a memory and a later node finds it by query, per user, across runs and store instances', async () => {
    const { memory } = await createTestMemory();
    const graph = memoryGraph(new StrataStore({ memory, namespace: 'graph-memories' }));
    await graph.invoke({ userId: 'ana', note: 'Ana is allergic to peanuts', question: 'allergies' });
    await graph.invoke({ userId: 'bo', note: 'Bo is allergic to shellfish', question: 'allergies' });
    const run = await graph.invoke({ userId: 'ana', note: 'Ana moved to Lisbon in May', question: 'what is Ana allergic to?' });

    expect(run.recalled[0]?.text).toBe('Ana is allergic to peanuts');
    expect(typeof run.recalled[0]?.score).toBe('number');
    expect(run.recalled.map((r) => r.text)).not.toContain('Bo is allergic to shellfish');

    // what the graph stored is strata's: another store (a restarted app) and memory.search see it
    const again = memoryGraph(new StrataStore({ memory, namespace: 'graph-memories' }));
    const later = await again.invoke({ userId: 'ana', note: 'Ana likes jazz', question: 'where does Ana live?' });
    expect(later.recalled[0]?.text).toBe('Ana moved to Lisbon in May');
    const keys = (await new StrataStore({ memory, namespace: 'graph-memories' }).search(['memories', 'ana'])).map((i) => i.key).sort();
    expect(keys).toEqual(['note-1', 'note-2', 'note-3']);
    const [hit] = await memory.search({ namespace: 'graph-memories', query: 'shellfish', kinds: ['turn'] });
    expect(hit?.text).toBe('text: Bo is allergic to shellfish');
    await memory.close();
  });
});
