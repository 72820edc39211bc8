// @strata/kb-chroma public surface.
export { createChromaKnowledgeBase, ChromaKnowledgeBase } from './chroma-knowledge-base.js';
export type { ChromaKnowledgeBaseOptions } from './chroma-options.js';
export { collectionNameFor } from './collection-name.js';
