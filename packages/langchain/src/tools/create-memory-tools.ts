import { forgetTool } from './forget-tool.js';
import { memoryToolScope, type MemoryToolsOptions } from './memory-tool-scope.js';
import { recallTool } from './recall-tool.js';
import { rememberTool } from './remember-tool.js';

/**
 * Tools for an agent that manages its own memory: `remember` (store a note, get back the
 * facts filed from it), `recall` (search the namespace) and `forget` (delete a turn, note or
 * fact by id). Each is a LangChain `tool()` with a zod schema; pass them to `createAgent` or
 * `model.bindTools`. They work with or without `createStrataMiddleware`.
 * @throws StrataError CONFIG_INVALID for options that are not {@link MemoryToolsOptions}.
 * @example
 * const [remember, recall, forget] = createMemoryTools({ memory, namespace: 'user-42' });
 * const agent = createAgent({ model, tools: [remember, recall, forget] });
 */
export function createMemoryTools(options: MemoryToolsOptions) {
  const scope = memoryToolScope(options);
  return [rememberTool(scope), recallTool(scope), forgetTool(scope)] as const;
}
