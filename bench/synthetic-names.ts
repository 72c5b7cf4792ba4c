/**
 * @module The synthetic names the million-row benches draw (bench/million.ts, bench/credentials-million.ts):
 * generated syllables, surnames and given names with Zipf frequencies so that some words are common and
 * most rare, from one seeded generator, so every run builds the same file. Never served, never real records.
 */
/** A small deterministic generator (mulberry32), so every run builds the same file. */
function generator(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
export const random = generator(29)

const SYLLABLES = ['al', 'ben', 'cor', 'da', 'el', 'fin', 'gar', 'ho', 'is', 'jan', 'ka', 'lor', 'mi', 'nor', 'os', 'pel', 'qui', 'ra', 'sten', 'tor', 'ul', 'ven', 'wil', 'xan', 'yor', 'zel', 'ber', 'chan', 'dor', 'mar']
export const word = (n: number): string => {
  // The n-th generated word: two to four syllables, read off n's digits in base 30.
  let w = ''
  let k = n + 30 * 30
  while (k > 0) {
    w += SYLLABLES[k % 30]
    k = Math.floor(k / 30)
  }
  return w.toUpperCase()
}
/** A pool of `size` words drawn with Zipf frequency `s` (the k-th word's weight k^-s). */
function zipf(size: number, s: number, offset: number): () => string {
  const cumulative = new Float64Array(size)
  let total = 0
  for (let k = 0; k < size; k++) cumulative[k] = total += (k + 1) ** -s
  return () => {
    const x = random() * total
    let lo = 0
    let hi = size - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return word(offset + lo)
  }
}
export const surname = zipf(100_000, 0.75, 0)
export const given = zipf(5_000, 0.9, 200_000)
export const ORGANISATION = ['MEDICAL', 'HEALTH', 'CLINIC', 'DENTAL', 'PHARMACY', 'ASSOCIATES', 'GROUP', 'CARE', 'FAMILY', 'THERAPY', 'CENTER', 'SERVICES', 'PHYSICIANS', 'HOSPITAL', 'REHABILITATION']
export const STATES = ['CA', 'TX', 'FL', 'NY', 'PA', 'IL', 'OH', 'GA', 'NC', 'MI', 'NJ', 'VA', 'WA', 'AZ', 'MA', 'TN', 'IN', 'MO', 'MD', 'WI', 'CO', 'MN', 'SC', 'AL', 'LA', 'KY', 'OR', 'OK', 'CT', 'UT']
export const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
