import type { Endpoint } from '../config.js';
import type { DoctorCheck } from './doctor.js';

const LABEL = { functionCalling: 'tool calling', jsonSchema: 'JSON schema', jsonMode: 'JSON mode' } as const;

/**
 * One real structured call to the llm endpoint, as derivation makes them: with its configured
 * method, or each of tool calling, JSON schema and JSON mode until one works. Says which works,
 * how long the call took, and what to set. LangChain is loaded only here (offline checks never load it).
 */
export async function checkStructuredOutput(endpoint: Endpoint): Promise<DoctorCheck> {
  const check = 'llm structured output';
  const [{ createLlmModels }, { probeStructuredOutput }] = await Promise.all([import('../llm-models.js'), import('@strata/langchain')]);
  const { method: configured, ...rest } = endpoint;
  const { chatModel } = createLlmModels({ ...rest, timeoutMs: 60_000 });
  const fixed = configured !== undefined && configured !== 'auto' ? configured : undefined;
  try {
    const { method, trials } = await probeStructuredOutput(chatModel, fixed ? [fixed] : undefined);
    const tried = trials.map((t) => `${LABEL[t.method]} ${t.ok ? `works (${t.ms} ms)` : 'failed'}`).join(', ');
    if (method === undefined) {
      const why = trials.map((t) => `${LABEL[t.method]}: ${t.error ?? 'unusable'}`).join('; ');
      return {
        check,
        status: 'fail',
        detail: `${endpoint.model}: ${tried}`,
        hint: fixed
          ? `STRATA_LLM_METHOD=${fixed} does not work with this endpoint (${why}); unset it (auto) or set another method.`
          : `the endpoint gave no usable structured output with any method (${why}); use a model that supports tool calling or JSON output.`,
      };
    }
    const detail = `${endpoint.model}: ${tried}`;
    if (fixed) return { check, status: 'ok', detail: `${detail}; STRATA_LLM_METHOD=${fixed} is set` };
    return { check, status: 'ok', detail: `${detail}; auto detection picks ${method}`, hint: `set STRATA_LLM_METHOD=${method} to skip detecting it on each start.` };
  } catch (error) {
    return { check, status: 'fail', detail: `${endpoint.model}: ${error instanceof Error ? error.message : String(error)}`, hint: 'Fix the llm endpoint first (see the check above).' };
  }
}
