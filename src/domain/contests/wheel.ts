/**
 * The fortune wheel's odds. Each winning slice has a chance in basis points (1 = 0.01 %); the losing slice holds
 * what is left of 10 000. The server draws r uniformly in [0, 10 000) with a CSPRNG (crypto.randomInt) and
 * `pickSlice` maps it to a slice. A slice whose lot is out of stock cannot win: its share goes to the losing slice.
 */

export const ODDS_SCALE = 10_000;

type WheelSlice = { id: string; oddsBp: number; inStock: boolean };

/** The winning slice for `r` ∈ [0, ODDS_SCALE), or null for the losing slice. */
export function pickSlice<S extends WheelSlice>(slices: readonly S[], r: number): S | null {
  if (!Number.isInteger(r) || r < 0 || r >= ODDS_SCALE) throw new RangeError("r must be an integer in [0, 10000)");
  let upper = 0;
  for (const slice of slices) {
    upper += slice.oddsBp;
    if (r < upper) return slice.inStock ? slice : null;
  }
  return null;
}

/**
 * A uniform integer in [0, n) from the platform's CSPRNG (Web Crypto, in Node and browsers alike), by rejection
 * sampling so that no value is more likely than another. The server spins the wheel with it.
 */
export function secureRandomBelow(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError("n must be an integer in [1, 2^32]");
  const limit = Math.floor(2 ** 32 / n) * n;
  const buffer = new Uint32Array(1);
  for (;;) {
    globalThis.crypto.getRandomValues(buffer);
    if (buffer[0]! < limit) return buffer[0]! % n;
  }
}

/** The losing slice's share, in basis points. */
export const losingOddsBp = (slices: readonly { oddsBp: number }[]) =>
  ODDS_SCALE - slices.reduce((sum, s) => sum + s.oddsBp, 0);

/** "12,5 %" from basis points. */
export const oddsPercent = (bp: number) => bp / 100;

/** A slice's arc on the drawn wheel, in degrees from the top, clockwise. */
type WheelArc = { start: number; size: number };

/**
 * The drawn wheel's arcs, each as wide as its odds (issue 25 row 3): a 5 % lot gets 18°, a 90 % « Perdu » 324°.
 * Weights that add up to nothing fall back to equal slices.
 */
export function wheelArcs(weights: readonly number[]): WheelArc[] {
  const total = weights.reduce((sum, w) => sum + Math.max(0, w), 0);
  let start = 0;
  return weights.map((w) => {
    const size = total > 0 ? (360 * Math.max(0, w)) / total : 360 / weights.length;
    const arc = { start, size };
    start += size;
    return arc;
  });
}

/**
 * Where the wheel stops, in degrees of rotation, so that slice `index` sits under the pointer at the top: of
 * `arcs`, or of `count` equal slices. `turns` full turns first; `jitter` ∈ [0, 1) places it within the slice (kept
 * away from the edges).
 */
export function wheelStopAngle(index: number, arcs: number | readonly WheelArc[], turns: number, jitter = 0.5): number {
  const arc =
    typeof arcs === "number"
      ? { start: (index * 360) / arcs, size: 360 / arcs }
      : (arcs[index] ?? { start: 0, size: 360 });
  const within = arc.start + arc.size * (0.15 + 0.7 * jitter);
  return turns * 360 + (360 - within);
}
