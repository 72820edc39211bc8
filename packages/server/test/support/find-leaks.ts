import type { RouteRequest } from './route-table.js';

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    // a path that is not valid percent-encoding is compared as sent
    return path;
  }
}

/**
 * The secrets that appear in an answer without having been sent in the request: a server may
 * echo the id a caller gave it, but nothing else of a tenant the caller cannot reach.
 */
export function findLeaks(answer: string, secrets: string[], sent: RouteRequest): string[] {
  const request = `${sent.path}\n${decoded(sent.path)}\n${sent.body ?? ''}`;
  return secrets.filter((secret) => answer.includes(secret) && !request.includes(secret));
}
