import type { ThreadRequest, ThreadSelector } from '../../ports/thread-selector.js';

/**
 * Attaches every user turn to the newest reply before it: a conversation without branches.
 * The default selector.
 * @example
 * const memory = await createMemory({ threadSelector: new LinearThreadSelector() });
 */
export class LinearThreadSelector implements ThreadSelector {
  async selectParents(requests: ThreadRequest[]): Promise<(string | null)[]> {
    return requests.map(() => null);
  }
}
