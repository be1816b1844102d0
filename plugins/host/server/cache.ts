import { weakEtag } from '../../../runtime/http/wire.js';

/** one kept answer (or what answers are made from), with the entities it read */
interface Kept<V> {
  value: V;
  read: ReadonlySet<string>;
  etag?: string;
}

/** where a kept thing's key names its page: `<language>:<url>`, then `\u0000…` for what belongs to that page */
const urlOf = (key: string) => key.slice(key.indexOf(':') + 1).split('\u0000')[0];

/** kept values by key, at most `max` (the oldest goes first), each with the entities it read */
class Shelf<V> {
  readonly entries = new Map<string, Kept<V>>();
  constructor(private max: number) {}
  get(key: string) {
    return this.entries.get(key);
  }
  set(key: string, value: V, read: ReadonlySet<string>) {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, read });
  }
  drop(which: (key: string, kept: Kept<V>) => boolean) {
    for (const [key, kept] of this.entries) if (which(key, kept)) this.entries.delete(key);
  }
}

/**
 * Rendered pages by language and url, each with the entities it read; a change to one of them drops it. A page is
 * kept as its UTF-8 bytes, encoded once: a hit writes them to the socket as they are (a string would be measured and
 * encoded again on every answer, the larger part of a hit's cost). The same key holds the 404 page of a language
 * (`<language>:/404\u0000not-found`) and the discovery answers (`*:/sitemap.xml`).
 *
 * Beside the pages, and never pushing one out: the answers of GET /api/host/pages/rows (keyed by their query, which
 * a client chooses) and, per page, where it shows relations a page at a time (`places`), so that such a request is
 * answered without drawing the page again. All go with their page: a change to what they read, a revalidation of its
 * path.
 */
export class PageCache {
  private pages: Shelf<Uint8Array<ArrayBuffer>>;
  private answers: Shelf<Uint8Array<ArrayBuffer>>;
  private placed: Shelf<unknown>;

  constructor(max = 1000) {
    this.pages = new Shelf(max);
    this.answers = new Shelf(max);
    this.placed = new Shelf(max);
  }

  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    return this.pages.get(key)?.value;
  }

  /** the page's validator (runtime/http/wire.ts's weak ETag of its HTML), computed once per cached page */
  etag(key: string): string | undefined {
    const page = this.pages.get(key);
    if (page) page.etag ??= weakEtag(page.value);
    return page?.etag;
  }

  /** keeps a page's HTML as the UTF-8 bytes it is answered with (encoded once, by the storefront) */
  set(key: string, html: Uint8Array<ArrayBuffer>, read: ReadonlySet<string>) {
    this.pages.set(key, html, read);
  }

  /** a kept answer about a page (`<page key>\u0000…`): GET /api/host/pages/rows */
  answer(key: string): Uint8Array<ArrayBuffer> | undefined {
    return this.answers.get(key)?.value;
  }

  keepAnswer(key: string, body: Uint8Array<ArrayBuffer>, read: ReadonlySet<string>) {
    this.answers.set(key, body, read);
  }

  /** what the storefront keeps of a page's last render besides its HTML (where it shows relations a page at a time) */
  places<P>(key: string): P | undefined {
    return this.placed.get(key)?.value as P | undefined;
  }

  keepPlaces(key: string, places: unknown, read: ReadonlySet<string>) {
    this.placed.set(key, places, read);
  }

  /** drops everything kept that read the entity */
  changed(entityId: string) {
    for (const shelf of this.shelves()) shelf.drop((_, kept) => kept.read.has(entityId));
  }

  /** drops one page (every language), or with layout every page under the path, with what is kept about them */
  revalidate(path: string, layout: boolean) {
    const clean = '/' + path.split('/').filter(Boolean).join('/');
    for (const shelf of this.shelves()) {
      shelf.drop((key) => {
        const url = urlOf(key);
        return url === clean || (layout && (clean === '/' || url.startsWith(clean + '/')));
      });
    }
  }

  /** drops everything */
  clear() {
    for (const shelf of this.shelves()) shelf.entries.clear();
  }

  /** how many pages are kept */
  get size() {
    return this.pages.entries.size;
  }

  private shelves(): Shelf<unknown>[] {
    return [this.pages, this.answers, this.placed];
  }
}
