import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from '../scripts/generate-openapi-types.js';

describe('src/openapi.ts', () => {
  it("is what the server's OpenAPI document generates now", async () => {
    const committed = await readFile(OPENAPI_TYPES_FILE, 'utf8');
    const fresh = await renderOpenApiTypes();
    expect(committed, 'src/openapi.ts is stale: run npm run generate -w @strata/client and commit it').toBe(fresh);
  });
});
