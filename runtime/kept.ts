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

/**
 * `make(key, ...args)`, shared while it is pending: callers asking for a key whose promise has not settled get that
 * same promise (concurrent first requests make it once, not once each; the first caller's `args` make it); once settled
 * it is forgotten, so the next call makes it again (what is kept longer is the caller's to keep).
 * @example const check = sharedWhilePending(() => Promise.all([query(), ping()]));
 */
export function sharedWhilePending<K, V, A extends unknown[] = []>(make: (key: K, ...args: A) => Promise<V>): (key: K, ...args: A) => Promise<V> {
  const pending = new Map<K, Promise<V>>();
  return (key, ...args) => {
    let p = pending.get(key);
    if (!p) {
      p = make(key, ...args).finally(() => pending.delete(key));
      pending.set(key, p);
    }
    return p;
  };
}
