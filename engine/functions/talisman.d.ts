/** The one module of talisman the matcher uses (the package ships no types). */
declare module 'talisman/metrics/jaro-winkler.js' {
  const jaroWinkler: {
    /** Jaro-Winkler similarity of two strings, 0 to 1 (prefix scale 0.1, boost threshold 0.7). */
    similarity(a: string, b: string): number
  }
  export default jaroWinkler
}
