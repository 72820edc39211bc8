import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { StrataError } from '../errors/strata-error.js';

/**
 * The preset dictionary of format 1: words and phrases common in chat turns. Short turns
 * share few repeats with themselves; a dictionary gives deflate something to refer to.
 * Never edit it: stored texts need it to be restored. A new dictionary is a new format.
 */
const DICTIONARY_V1 = Buffer.from(
  [
    'the of and to in is you that it for was on are with as be at have this from or had by but what some we can out',
    'other were all there when up use your how said an each she which do their time if will way about many then them',
    'would like so these her long make thing see him has look more day could go come did number no most people my over',
    "know than call first who may down been now find any new work part take get place made live where after back little",
    "only year show every good me give our under name very through just great think say help before right too same tell",
    "does set three want well also play small end put home read hand large even here must big high such why ask change",
    "went kind off need house try again point world near I'm I've I'd don't can't it's that's you're what's let's",
    'Sure, Thanks! Thank you. Great! How about Could you recommend Can you help me with I would like to I think',
    'That sounds good. Yes, No, maybe last week next week tomorrow yesterday today morning evening weekend because',
    'should really actually something anything everything recommend suggest favorite because of the Here is a',
  ].join(' '),
);

const FORMAT_DEFLATE_V1 = 1;

/** A turn's text as cold storage keeps it: a format byte, then raw deflate with the preset dictionary. */
export function compressText(text: string): Uint8Array {
  const body = deflateRawSync(Buffer.from(text, 'utf8'), { level: 9, dictionary: DICTIONARY_V1 });
  const out = new Uint8Array(body.length + 1);
  out[0] = FORMAT_DEFLATE_V1;
  out.set(body, 1);
  return out;
}

/**
 * The text given to {@link compressText}, exactly.
 * @throws StrataError INTERNAL when the bytes are not a cold text strata wrote.
 */
export function restoreText(bytes: Uint8Array): string {
  if (bytes[0] !== FORMAT_DEFLATE_V1) {
    throw new StrataError('INTERNAL', `cold text has unknown format ${String(bytes[0])}`, { hint: 'The store holds compressed text from a newer strata: upgrade @strata/core.' });
  }
  try {
    return inflateRawSync(bytes.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8');
  } catch (error) {
    throw new StrataError('INTERNAL', `cold text cannot be restored (${error instanceof Error ? error.message : String(error)})`, {
      hint: 'The stored bytes are damaged; restore the store from a backup or an export.',
      cause: error,
    });
  }
}
