export { describeSessionStoreContract } from './session-store-contract.js';
export type { SessionStoreContractOptions } from './session-store-contract.js';
export { describeKnowledgeBaseContract } from './knowledge-base-contract.js';
export type { KnowledgeBaseContractOptions } from './knowledge-base-contract.js';
export { describeJobQueueContract } from './job-queue-contract.js';
export type { JobQueueContractOptions } from './job-queue-contract.js';
export { requireService } from './require-service.js';
