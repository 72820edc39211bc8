import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type WinkNLP from 'wink-nlp';
import type { Model } from 'wink-nlp';
import { englishModelInSlices } from './tagger-model.js';

const require = createRequire(import.meta.url);
const winkNLP = require('wink-nlp') as typeof WinkNLP;
const englishModel = require('wink-eng-lite-web-model') as Model;

const SENTENCES = [
  'I went climbing with Tomas on Sunday. We reached the top before noon!',
  "My sister's new flat in Leeds isn't far from the station, she says.",
  'Honestly, I would have bought the 3-seater sofa if it were cheaper.',
  "We're flying to Montréal next Friday at 6:45am; can't wait :)",
];

describe('the tagger model built in slices', () => {
  it('is the model the package builds at once, and tags every sentence as the stock tagger does', async () => {
    const sliced = await englishModelInSlices(englishModel);
    // each part as a digest of its JSON, typed arrays and sets included: a difference names the part (a deep toEqual over 87k lexemes takes seconds)
    const json = (value: unknown): string =>
      JSON.stringify(value, (_, inner: unknown) => (inner instanceof Set ? { set: [...inner] } : ArrayBuffer.isView(inner) ? { bytes: Buffer.from(inner.buffer).toString('base64') } : inner));
    const digestOf = (model: Model): Record<string, string> => {
      const core = (model as unknown as { core: () => Record<string, unknown> }).core();
      return Object.fromEntries(Object.entries(core).map(([part, value]) => [part, createHash('sha256').update(json(value)).digest('hex')]));
    };
    expect(digestOf(sliced)).toEqual(digestOf(englishModel));
    const stock = winkNLP(englishModel, ['sbd', 'pos']);
    const ours = winkNLP(sliced, ['sbd', 'pos']);
    const read = (nlp: typeof stock, text: string) => {
      const doc = nlp.readDoc(text);
      return { sentences: doc.sentences().out(), values: doc.tokens().out(), pos: doc.tokens().out(nlp.its.pos) };
    };
    for (const text of SENTENCES) expect(read(ours, text)).toEqual(read(stock, text));
  });

  it('lets other tasks run while it builds: the copy, the decoding and the lexeme hash are slices of their own', async () => {
    // other tasks: a callback that queues itself again, counted until the build is done
    let otherTasks = 0;
    let counting = true;
    const other = (): void => {
      if (!counting) return;
      otherTasks++;
      setImmediate(other);
    };
    setImmediate(other);
    await englishModelInSlices(englishModel).finally(() => {
      counting = false;
    });
    // a slice per feature copied (over a dozen) and per 15,000 lexemes hashed (six): the package's build is one task
    expect(otherTasks).toBeGreaterThan(15);
  });
});
