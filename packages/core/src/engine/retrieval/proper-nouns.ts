/**
 * Capitalised words that do not start a sentence ("Alice", "Cape Town"): in chat, these are
 * the names of people and places, which make good query expansions ("my cousin is called
 * Alice" -> also look for "Alice"). "I" and words after sentence ends are not names. Pure.
 */
export function properNouns(text: string): string[] {
  const names: string[] = [];
  for (const sentence of text.split(/(?<=[.!?:;])\s+/)) {
    const words = sentence.split(/\s+/);
    for (let i = 1; i < words.length; i++) {
      const word = (words[i] ?? '').replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/, '');
      if (/^\p{Lu}\p{Ll}+$/u.test(word) && !names.includes(word)) names.push(word);
    }
  }
  return names;
}
