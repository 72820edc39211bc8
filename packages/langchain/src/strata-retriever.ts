import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import type { MemoryApi, SearchHit } from '@strata/core';

/** Provenance of a retrieved item, as `Document.metadata`. */
export interface StrataDocumentMetadata {
  kind: SearchHit['kind'];
  /** Id of the turn, summary or fact. */
  id: string;
  /** Fused rank score; higher is better, comparable only within one result list. */
  score: number;
  /** Session of a turn or summary; null for a fact (facts belong to the namespace). */
  sessionId: string | null;
  /** The stored messages the item comes from. */
  messageIds: string[];
  /** Epoch milliseconds: when the turn was said, the summary made, the fact became valid. */
  createdAt: number;
}

/**
 * Options of {@link StrataRetriever}: the memory, the one namespace it searches, how many hits
 * and of which kinds; plus LangChain's retriever fields (callbacks, tags, metadata, verbose).
 */
export interface StrataRetrieverOptions extends BaseRetrieverInput {
  memory: MemoryApi;
  /** Only this namespace is searched: nothing of another namespace is ever returned. */
  namespace: string;
  /** Most documents returned. @defaultValue 10 (memory.search's default) */
  k?: number;
  /** Item kinds to search. @defaultValue all of 'turn', 'summary', 'fact' */
  kinds?: SearchHit['kind'][];
}

/**
 * A LangChain retriever over one strata namespace: hybrid (BM25 + vector) search of its
 * turns, summaries and current facts, best first, each `Document` carrying its provenance.
 * @example
 * const retriever = new StrataRetriever({ memory, namespace: 'user-42', k: 5, kinds: ['fact'] });
 * const docs = await retriever.invoke('where does the user live?');
 * docs[0]?.metadata; // { kind: 'fact', id, score, sessionId: null, messageIds, createdAt }
 */
export class StrataRetriever extends BaseRetriever<StrataDocumentMetadata> {
  lc_namespace = ['strata', 'retrievers'];
  private readonly memory: MemoryApi;
  private readonly namespace: string;
  private readonly k: number | undefined;
  private readonly kinds: SearchHit['kind'][] | undefined;

  constructor(options: StrataRetrieverOptions) {
    const { memory, namespace, k, kinds, ...retrieverFields } = options;
    super(retrieverFields);
    this.memory = memory;
    this.namespace = namespace;
    this.k = k;
    this.kinds = kinds;
  }

  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun): Promise<Document<StrataDocumentMetadata>[]> {
    const hits = await this.memory.search({
      namespace: this.namespace,
      query,
      ...(this.k === undefined ? {} : { k: this.k }),
      ...(this.kinds === undefined ? {} : { kinds: this.kinds }),
    });
    return hits.map(toDocument);
  }
}

function toDocument(hit: SearchHit): Document<StrataDocumentMetadata> {
  const { kind, id, score, sessionId, messageIds, createdAt } = hit;
  return new Document({ pageContent: hit.text, id, metadata: { kind, id, score, sessionId, messageIds, createdAt } });
}
