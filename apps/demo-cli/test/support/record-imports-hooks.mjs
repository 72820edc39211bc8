import { appendFileSync } from 'node:fs';

/** Records each resolved module URL (ESM imports; require() of CommonJS is not hooked in Node 20). */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const file = process.env.STRATA_RECORD_IMPORTS;
  if (file) appendFileSync(file, `${result.url}\n`);
  return result;
}
