// Abbreviations whose period does not end a sentence ("Dr. Smith", "e.g. jazz").
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'vs', 'etc', 'e.g', 'i.e', 'inc', 'ltd', 'co', 'corp', 'approx', 'no', 'mt', 'ave']);

const BOUNDARY = /[.!?…]+["')\]]*\s+/g;

function endsWithAbbreviation(text: string): boolean {
  const lastWord = /([\p{L}.]+)\.$/u.exec(text.trimEnd().replace(/["')\]]+$/, ''));
  return lastWord?.[1] !== undefined && ABBREVIATIONS.has(lastWord[1].toLowerCase());
}

/**
 * Splits text into sentences, each kept verbatim (terminal punctuation included) so that
 * extractive output can be traced back to its input. Lines are always separate sentences:
 * chat messages use line breaks as sentence ends.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let start = 0;
    for (const match of line.matchAll(BOUNDARY)) {
      const end = match.index + match[0].length;
      const candidate = line.slice(start, end);
      if (endsWithAbbreviation(candidate)) continue;
      sentences.push(candidate.trim());
      start = end;
    }
    sentences.push(line.slice(start).trim());
  }
  return sentences.filter((sentence) => sentence.length > 0);
}
