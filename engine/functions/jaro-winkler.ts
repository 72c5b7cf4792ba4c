/**
 * @module Jaro-Winkler similarity, the one measure of the entity matcher that fuzzball (the matcher's
 * other measure, token-set ratio, and the edit distance of suggestions) lacks.
 *
 * Jaro (1989, "Advances in record linkage methodology as applied to matching the 1985 census of Tampa,
 * Florida", JASA 84:414) counts the characters two texts share within a window of half the longer
 * length and the shared ones out of order; Winkler (1990, "String comparator metrics and enhanced
 * decision rules in the Fellegi-Sunter model of record linkage", ASA Proceedings of the Section on
 * Survey Research Methods, 354-359) raises a score of at least 0.7 by 0.1 per common leading
 * character, at most four. Half the out-of-order count is an integer division, as in Winkler's
 * strcmp95.c for the US Census Bureau. Characters are UTF-16 code units, and every step and the
 * order of every floating-point operation is that of talisman's metrics/jaro-winkler (1.1.4), which
 * the matcher used before: the scores, and so the thresholds measured on the labelled pairs, are unchanged.
 */

/** Scores of at least this are raised for a common beginning (Winkler's boost threshold). */
const BOOST_THRESHOLD = 0.7
/** The raise per common leading character (Winkler's p; at most 0.25 keeps the score within 1). */
const SCALING_FACTOR = 0.1
/** At most this many leading characters count. */
const PREFIX_LIMIT = 4

/** The Jaro similarity of two texts, from 0 (nothing shared) to 1 (equal). @api private */
export function jaro(a: string, b: string): number {
  if (a === b) return 1
  const [max, min] = a.length > b.length ? [a, b] : [b, a]
  const range = Math.max(((max.length / 2) | 0) - 1, 0)
  // For each character of the shorter text, the position of its partner in the longer one (or -1).
  const partner = new Array<number>(min.length).fill(-1)
  const taken = new Array<boolean>(max.length).fill(false)
  let matches = 0
  for (let i = 0; i < min.length; i++) {
    const end = Math.min(i + range + 1, max.length)
    for (let j = Math.max(i - range, 0); j < end; j++) {
      if (!taken[j] && min[i] === max[j]) {
        partner[i] = j
        taken[j] = true
        matches++
        break
      }
    }
  }
  if (matches === 0) return 0
  // The shared characters in each text's order; a position where they differ is half a transposition.
  const inMin: string[] = []
  const inMax: string[] = []
  for (let i = 0; i < min.length; i++) if (partner[i] !== -1) inMin.push(min[i]!)
  for (let j = 0; j < max.length; j++) if (taken[j]) inMax.push(max[j]!)
  let outOfOrder = 0
  for (let k = 0; k < matches; k++) if (inMin[k] !== inMax[k]) outOfOrder++
  const t = (outOfOrder / 2) | 0
  const m = matches
  return (m / a.length + m / b.length + (m - t) / m) / 3
}

/** The Jaro-Winkler similarity of two texts, from 0 to 1. @api private */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1
  const dj = jaro(a, b)
  if (dj < BOOST_THRESHOLD) return dj
  const limit = Math.min(a.length, b.length, PREFIX_LIMIT)
  let l = 0
  while (l < limit && a[l] === b[l]) l++
  return dj + l * SCALING_FACTOR * (1 - dj)
}
