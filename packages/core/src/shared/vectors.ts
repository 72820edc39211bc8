/** Cosine similarity; 0 when either vector is empty, zero or of another length. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The unit-length mean after folding `vector` into a unit-length mean of `count` vectors. */
export function foldIntoCentroid(centroid: readonly number[], count: number, vector: readonly number[]): number[] {
  const unit = normalize(vector);
  if (unit.length === 0) return [...centroid];
  if (centroid.length !== unit.length || count === 0) return unit;
  return normalize(centroid.map((c, i) => c * count + (unit[i] ?? 0)));
}

function normalize(vector: readonly number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm === 0 ? [] : vector.map((v) => v / norm);
}
