import type WinkNLP from 'wink-nlp';
import type { ItemSentence, ItsFunction, Model, WinkMethods } from 'wink-nlp';
import { loadOnFirstUse } from '../../shared/load-on-first-use.js';
import { yieldToTimersAndIo } from '../../shared/time-slices.js';
import { englishModelInSlices } from './tagger-model.js';

const winkNLP = loadOnFirstUse<typeof WinkNLP>('wink-nlp');
const englishModel = loadOnFirstUse<Model>('wink-eng-lite-web-model');

/** One word or punctuation mark as the tagger read it. */
export interface ParsedToken {
  text: string;
  /** Universal part of speech: PRON, VERB, AUX, NOUN, PROPN, ADJ, ADV, PUNCT, ... */
  pos: string;
  lemma: string;
  /** Whitespace before the token in the source, so text can be put back together. */
  space: string;
}

export interface ParsedSentence {
  text: string;
  tokens: ParsedToken[];
}

// Sentence boundaries and part of speech are all the extractor reads: no entities, no sentiment.
const PIPE = ['sbd', 'pos'];
let parser: WinkMethods | undefined;

/** The tagger is built on first use: loading wink-nlp and its model takes ~100 ms, not paid at import. */
function loadParser(): WinkMethods {
  parser ??= winkNLP()(englishModel(), PIPE);
  return parser;
}

/**
 * Loads the tagger and its model ahead of a derivation with `import()`, spread over turns of the
 * event loop instead of one `require` that held it for about 300 ms: wink-nlp, then its model
 * (reading its JSON, about 30 ms), then the model's core in slices (see tagger-model.ts: one
 * synchronous call of about 70 ms in the package), then the tagger (about 14 ms), each with
 * timers and I/O run between them, and the caller goes on after that. Calls after the first
 * return at once.
 */
export function preloadSentenceParser(): Promise<void> {
  if (parser !== undefined) return Promise.resolve();
  preloading ??= (async () => {
    await winkNLP.preload();
    await yieldToTimersAndIo();
    await englishModel.preload();
    await yieldToTimersAndIo();
    try {
      const model = await englishModelInSlices(englishModel());
      parser ??= winkNLP()(model, PIPE);
    } catch {
      // the first use builds the tagger the package's way, and reports what is wrong
    }
    await yieldToTimersAndIo();
  })();
  return preloading;
}
let preloading: Promise<void> | undefined;

/**
 * Splits text into sentences of part-of-speech tagged tokens with wink-nlp (English lite
 * model): ~0.1 ms for a chat turn of a few sentences. Line breaks always end a sentence.
 */
export function parseSentences(text: string): ParsedSentence[] {
  const nlp = loadParser();
  const its = nlp.its;
  const sentences: ParsedSentence[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim().length === 0) continue;
    nlp
      .readDoc(line)
      .sentences()
      .each((sentence: ItemSentence) => {
        const tokens = sentence.tokens();
        const words: string[] = tokens.out(its.value);
        const pos = tokens.out(its.pos);
        // wink-nlp declares its.lemma with a signature its own `out` rejects; it is a token function.
        const lemmas = tokens.out(its.lemma as unknown as ItsFunction<string>);
        const spaces = tokens.out(its.precedingSpaces);
        sentences.push({
          text: sentence.out().trim(),
          tokens: words.map((word, i) => ({ text: word, pos: pos[i] ?? 'X', lemma: lemmas[i] ?? word.toLowerCase(), space: spaces[i] ?? ' ' })),
        });
      });
  }
  return sentences;
}
