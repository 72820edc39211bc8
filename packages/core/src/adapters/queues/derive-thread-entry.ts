/**
 * The body of a derive thread: builds its models once, then answers each request with
 * `deriveJob` (pure: models in, result out; no store). Loaded by {@link DeriveThread}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { StrataError } from '../../errors/strata-error.js';
import { createOfflineDeriveModels } from '../../services/derivation/offline-derive-models.js';
import { deriveJob, type DeriveModels } from '../../services/derivation/derive.js';
import type { DeriveReply, DeriveRequest, DeriveThreadData, ThreadError } from './derive-thread-protocol.js';

async function loadModels(data: DeriveThreadData): Promise<DeriveModels> {
  if (data.modelsModule === undefined) return createOfflineDeriveModels(data.policy);
  const specifier = data.modelsModule.includes('://') ? data.modelsModule : pathToFileURL(data.modelsModule).href;
  const module = (await import(specifier)) as { createDeriveModels?: () => DeriveModels | Promise<DeriveModels> };
  if (typeof module.createDeriveModels !== 'function') {
    throw new StrataError('CONFIG_INVALID', `${data.modelsModule} exports no createDeriveModels function`, {
      hint: 'Export `createDeriveModels()` returning { summarizer, extractor, embeddings, policy } from the models module.',
    });
  }
  return module.createDeriveModels();
}

function toThreadError(error: unknown): ThreadError {
  if (StrataError.is(error)) return { code: error.code, message: error.message, hint: error.hint, retryable: error.retryable, ...(error.endpoint === undefined ? {} : { endpoint: error.endpoint }) };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message, hint: 'Derivation failed inside the derive thread; the job is retried.', retryable: true };
}

const port = parentPort;
if (port === null) throw new Error('derive-thread-entry runs only as a worker thread');
const models = loadModels(workerData as DeriveThreadData);

/**
 * Posts the reply. A result that cannot cross the thread (a model returned functions or class
 * instances) fails its job for good, as a models configuration error, instead of killing the thread.
 */
function reply(message: DeriveReply): void {
  try {
    port?.postMessage(message);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const hint = 'Models used from a worker thread must return plain data (strings, numbers, arrays, plain objects).';
    port?.postMessage({ id: message.id, error: { code: 'CONFIG_INVALID', message: `derive result could not be sent from the thread: ${reason}`, hint, retryable: false } });
  }
}

port.on('message', (request: DeriveRequest) => {
  models
    .then((loaded) => deriveJob(request.job, loaded, request.attempt))
    .then(
      (result) => reply({ id: request.id, result }),
      (error: unknown) => reply({ id: request.id, error: toThreadError(error) }),
    );
});
