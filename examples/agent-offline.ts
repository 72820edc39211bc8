/**
 * strata as the memory of a LangChain agent, offline: no API key, no server. A stand-in model
 * answers with the facts strata gave it, so you can see what memory reaches the prompt.
 *
 *   node --import tsx --conditions=@strata/source examples/agent-offline.ts
 */
import { FactEchoModel } from './lib/fact-echo-model.js';
import { runTwoSessionDemo } from './lib/two-session-demo.js';

await runTwoSessionDemo(new FactEchoModel({}));
