import { createRequire } from 'node:module';
import type { Model } from 'wink-nlp';
import { yieldToTimersAndIo } from '../../shared/time-slices.js';

/*
 * wink-nlp's English model, its core built a slice at a time. The package builds it in one
 * synchronous call when a tagger is made (read-core-model.js and load-core-model.js of
 * wink-eng-lite-web-model 1.8: a deep copy of the model's JSON, its base64 lexicon decoded,
 * a hash of 87k lexemes; about 70 ms), which with the in-process queue held the app's event
 * loop for that long. The steps here are the package's own, in the same order, split so that
 * no slice takes more than a few milliseconds; the tagger made from it tags exactly as the
 * stock one does (tagger-model.test.ts compares them).
 */

const require = createRequire(import.meta.url);
/** The model's JSON, as the package's reader requires it (already in the require cache once the package is loaded). */
const MODEL_JSON = 'wink-eng-lite-web-model/dist/languages/cur/models/eng-core-web-model.json';

/** Lexemes hashed per slice (about 5 ms). */
const LEXEMES_PER_SLICE = 15_000;

interface Feature {
  list: string[];
  hash?: Record<string, number>;
  intrinsicSize?: number;
  index?: number;
  maxIndex?: number;
}
/** The parts of the core model the build touches (the rest is copied as it is). */
interface CoreModel {
  packing: { layout: Record<string, number[]>; efList?: string[] };
  features: Record<string, Feature> & { lexeme: Feature; posClusters: { list: unknown[] } };
  pos: { hash: Record<string, number> };
  lexicon: unknown;
  xpansions: unknown;
  [part: string]: unknown;
}

function bufferFromBase64(data: string): ArrayBuffer {
  const decoded = atob(data);
  const bytes = new Uint8Array(decoded.length);
  for (let k = 0; k < decoded.length; k++) bytes[k] = decoded.charCodeAt(k);
  return bytes.buffer;
}

/** The core model as read-core-model.js and load-core-model.js build it, a slice at a time. */
async function coreModelInSlices(): Promise<CoreModel> {
  const original = require(MODEL_JSON) as Record<string, unknown> & { features: Record<string, unknown> };
  // the deep copy, a part (and each feature) at a time: the package's copy is JSON.parse(JSON.stringify(...)) of plain JSON data
  const model = {} as CoreModel;
  const features: Record<string, unknown> = {};
  // the parts in the package's order (the features filled in below, one at a time)
  for (const part of Object.keys(original)) model[part] = part === 'features' ? features : structuredClone(original[part]);
  for (const name of Object.keys(original.features)) {
    await yieldToTimersAndIo();
    features[name] = structuredClone(original.features[name]);
  }
  await yieldToTimersAndIo();
  model.lexicon = new Uint32Array(bufferFromBase64(model.lexicon as string));
  model.xpansions = new Uint32Array(bufferFromBase64(model.xpansions as string));
  const { packing } = model;
  for (const name in packing.layout) {
    if (packing.layout[name]?.[3] !== 0) continue;
    const feature = model.features[name] as Feature;
    feature.hash = Object.create(null) as Record<string, number>;
    for (let k = 0; k < feature.list.length; k++) feature.hash[feature.list[k] as string] = k;
  }
  const lexeme = model.features.lexeme;
  const lexemes = Object.create(null) as Record<string, number>;
  for (let from = 0; from < lexeme.list.length; from += LEXEMES_PER_SLICE) {
    await yieldToTimersAndIo();
    const to = Math.min(from + LEXEMES_PER_SLICE, lexeme.list.length);
    for (let k = from; k < to; k++) lexemes[lexeme.list[k] as string] = k;
  }
  lexeme.hash = lexemes;
  const clusters = model.features.posClusters.list;
  for (let k = 0; k < clusters.length; k++) clusters[k] = new Set((clusters[k] as string).split('_').map((tag) => model.pos.hash[tag] || 0));
  // load-core-model.js
  packing.efList = [];
  for (const name in packing.layout) {
    const layout = packing.layout[name] as number[];
    const feature = model.features[name] as Feature;
    if (layout[3] === 0) {
      feature.intrinsicSize = feature.list.length;
      feature.index = feature.list.length;
      feature.maxIndex = (layout[1] as number) >>> (layout[2] as number);
    }
    if (layout[4] === 1) packing.efList.push(name);
  }
  lexeme.intrinsicSize = lexeme.list.length;
  lexeme.index = lexeme.list.length;
  return model;
}

/**
 * The English model with its core built ahead in slices ({@link coreModelInSlices}): the same
 * model the package gives, whose `core()` returns that build instead of making it at once.
 */
export async function englishModelInSlices(englishModel: Model): Promise<Model> {
  const core = await coreModelInSlices();
  await yieldToTimersAndIo();
  return Object.assign(Object.create(null) as Model, englishModel, { core: () => core });
}
