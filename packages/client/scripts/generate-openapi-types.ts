// Writes src/openapi.ts (the types of the server's routes) from the OpenAPI document of @strata/server, so the client is typed by what the server validates.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createMemory } from '@strata/core';
import { createStrataServer } from '@strata/server';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** Where the generated types live (committed; a test fails when they are stale). */
export const OPENAPI_TYPES_FILE = fileURLToPath(new URL('../src/openapi.ts', import.meta.url));

const HEADER = `/**
 * The routes of @strata/server (paths, parameters, bodies, answers), from its OpenAPI document.
 * Do not edit: run \`npm run generate -w @strata/client\` after changing the server's routes.
 */

`;

/** The OpenAPI document a server over an in-memory core memory serves at /openapi.json. */
export async function fetchOpenApiDocument(): Promise<OpenAPI3> {
  const memory = await createMemory();
  try {
    const response = await createStrataServer({ memory }).request('/openapi.json');
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as OpenAPI3;
  } finally {
    await memory.close();
  }
}

/** The text of src/openapi.ts for the server as it is now. */
export async function renderOpenApiTypes(): Promise<string> {
  const document = await fetchOpenApiDocument();
  return HEADER + astToString(await openapiTS(document));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(OPENAPI_TYPES_FILE, await renderOpenApiTypes());
  console.log(`wrote ${OPENAPI_TYPES_FILE}`);
}
