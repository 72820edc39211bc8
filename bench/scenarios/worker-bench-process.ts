/**
 * A derive worker for the worker-throughput bench, in its own process. argv[2] is JSON:
 * { url, prefix, models: 'instant' | 'offline', concurrency }. Prints `ready`; closes on SIGTERM.
 */
import { startWorker } from '@strata/worker';
import { instantModels, offlineModels } from './worker-bench-models.js';

interface Config {
  url: string;
  prefix: string;
  models: 'instant' | 'offline';
  concurrency: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const models = config.models === 'instant' ? instantModels() : offlineModels();
const worker = await startWorker({ url: config.url, prefix: config.prefix, models, concurrency: config.concurrency });
process.once('SIGTERM', () => void worker.close().then(() => process.exit(0)));
process.stdout.write('ready\n');
