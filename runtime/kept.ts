/**
 * `make(key)`, kept by key: for values that never change for their key (a parsed text, a prepared statement).
 * Bounded: at most `max` are kept, and all go when it is full (a hot key is made again once, not evicted one by one).
 * @example const plainOf = keptBy(500, (value: string) => plainText(parseRichText(value)));
 */
export function keptBy<K, V>(max: number, make: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    if (kept.has(key)) return kept.get(key) as V;
    const value = make(key);
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
