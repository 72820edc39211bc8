import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { StrataError } from '../../errors/strata-error.js';

/**
 * The preset dictionary of format 1: common English words and chat phrases. Short turns
 * share few repeats with themselves; a dictionary gives deflate something to refer to.
 * Never edit it: stored texts need it to be restored. A new dictionary is a new format.
 */
const DICTIONARY_V1 = Buffer.from(
  [
    'a about above across after again against all almost alone along already also although always am among an and',
    'another any anyone anything are around as ask at away back be became because become been before began behind',
    "being believe best better between big both but by call came can can't cannot case change child children city",
    "close come could country course day days did didn't different do does doesn't doing don't done down during",
    'each early else end enough even ever every everyone everything example eyes face fact family far feel few find',
    'first follow for found friend from full gave get give given go going good got great group had half hand happen',
    "happened hard has have having he head hear help her here high him his home hope house how however I I'd I'll",
    "I'm I've idea if important in information instead interest into is isn't it it's its itself just keep kind",
    "knew know known large last later least leave left less let let's life like likely line little live long look",
    'looking lot made make makes making man many may maybe me mean might mind more most move much must my myself',
    'name need never new next night no not nothing now number of off often old on once one only open or order other',
    'others our out over own part people perhaps place plan play point possible probably problem put question quite',
    'rather really reason right room said same saw say says second see seem seemed seen set several she should show',
    'side since small so some someone something sometimes soon sorry start started still such sure take taken talk',
    "tell than thank thanks that that's the their them then there there's these they thing things think this those",
    'though thought three through time times to today together told too took toward tried true try trying turn two',
    "under understand until up upon us use used using usually very want wanted was wasn't water way we week weeks",
    "well went were what what's when where whether which while who whole why will with within without won't word",
    "words work world would wouldn't write year years yes yet you you'd you'll you're you've young your yourself",
    'Sure, here is Thanks! Thank you. That sounds good. Could you Can you help me with I would like to I think that',
    'How about What about Let me know if you have any other questions. I hope this helps. In general, For example,',
    'On the other hand, Here are a few Make sure to It depends on You can also If you want, next week last week',
    'tomorrow yesterday this morning this evening the weekend',
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
