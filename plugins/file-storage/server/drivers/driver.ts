/**
 * Where file bytes live. A driver stores an object under a key the module generates (`<uuid>.<ext>`) and
 * says what the row's `file` field keeps: the bare key, served by this server at `/files/<key>` (spec §9:
 * a value not starting with https gets the public files prefix), or an https url the provider serves.
 * @example
 * const file = await driver.put('0f…e1.png', bytes, 'image/png'); // 'local': '0f…e1.png'
 * await driver.remove(file);
 */
export interface StorageDriver {
  readonly name: StorageProvider;
  /** whether `get` answers what `put` stored (local, S3); a provider that serves its own urls (Vercel Blob) is not read back */
  readonly readsBack: boolean;
  /**
   * stores the bytes under the key; answers the value the row's file field keeps. A key is new unless `replace` says
   * the object may be written over (a cache slot, generate/cache.ts): readers then see the old bytes or the new, whole.
   */
  put(key: string, bytes: Uint8Array, mimeType: string, options?: { replace?: boolean }): Promise<string>;
  /** the bytes under a key, for `/files/<key>`; undefined when missing or when the provider serves its own urls */
  get(key: string): Promise<Uint8Array | undefined>;
  /** the key a row's file value names when the object is this driver's; undefined for anything else (an external url) */
  keyOf(file: string): string | undefined;
  /** removes the object a row's file value names, when it is this driver's (missing objects are no error) */
  remove(file: string): Promise<void>;
}

export const PROVIDERS = ['local', 'aws-s3', 'vercel-blob'] as const;
export type StorageProvider = (typeof PROVIDERS)[number];

/** the names this module gives stored objects: a UUID and the extension the bytes showed */
export const STORED_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{2,5}$/;

/** a stored key written as a row value: the key, '/files/<key>' or '<public base>/<key>' */
export function keyIn(file: string, publicBase?: string): string | undefined {
  let rest = file.trim();
  if (publicBase && rest.startsWith(publicBase + '/')) rest = rest.slice(publicBase.length + 1);
  else if (rest.startsWith('/files/')) rest = rest.slice('/files/'.length);
  return STORED_KEY.test(rest) ? rest : undefined;
}
