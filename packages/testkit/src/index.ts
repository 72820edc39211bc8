export { describeSessionStoreContract } from './session-store-contract.js';
export type { SessionStoreContractOptions } from './session-store-contract.js';
export { describeKnowledgeBaseContract } from './knowledge-base-contract.js';
export type { KnowledgeBaseContractOptions } from './knowledge-base-contract.js';
export { describeJobQueueContract } from './job-queue-contract.js';
export type { JobQueueContractOptions } from './job-queue-contract.js';
export { requireService } from './require-service.js';
export {
  startOpenAiStub,
  promptText,
  hashVector,
  type OpenAiStub,
  type OpenAiStubOptions,
  type StubAnswer,
  type StubChatReply,
  type StubFault,
  type StubChatHandler,
  type StubToolCall,
  type ChatCompletionRequest,
  type ChatCompletionMessage,
  type RecordedRequest,
} from './openai-stub-server.js';
export { describeTopicStoreContract } from './topic-store-contract.js';
export type { TopicStoreContractOptions } from './topic-store-contract.js';
export { describeMemoryBoundaryContract } from './memory-boundary-contract.js';
export type { MemoryBoundaryContractOptions, OpenedMemory } from './memory-boundary-contract.js';
export { describeAdversarialContract } from './adversarial-contract.js';
export type { AdversarialContractOptions } from './adversarial-contract.js';
