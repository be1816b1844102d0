import { weakEtag } from '../../../runtime/http/wire.js';

/**
 * Rendered pages by language and url, each with the entities it read; a change to one of them drops it. A page is
 * kept as its UTF-8 bytes, encoded once: a hit writes them to the socket as they are (a string would be measured and
 * encoded again on every answer, the larger part of a hit's cost).
 */
export class PageCache {
  private pages = new Map<string, { html: Uint8Array<ArrayBuffer>; read: Set<string>; etag?: string }>();

  constructor(private max = 1000) {}

  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    return this.pages.get(key)?.html;
  }

  /** the page's validator (runtime/http/wire.ts's weak ETag of its HTML), computed once per cached page */
  etag(key: string): string | undefined {
    const page = this.pages.get(key);
    if (page) page.etag ??= weakEtag(page.html);
    return page?.etag;
  }

  /** keeps a page's HTML as the UTF-8 bytes it is answered with (encoded once, by the storefront) */
  set(key: string, html: Uint8Array<ArrayBuffer>, read: Set<string>) {
    if (this.pages.size >= this.max) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, { html, read });
  }

  /** drops every page that read the entity */
  changed(entityId: string) {
    for (const [key, page] of this.pages) if (page.read.has(entityId)) this.pages.delete(key);
  }

  /** drops one page (every language), or with layout every page under the path */
  revalidate(path: string, layout: boolean) {
    const clean = '/' + path.split('/').filter(Boolean).join('/');
    for (const key of this.pages.keys()) {
      // a page's url, or the url of the page a kept answer about it belongs to (`<url>\u0000rows…`)
      const url = key.slice(key.indexOf(':') + 1).split('\u0000')[0];
      if (url === clean || (layout && (clean === '/' || url.startsWith(clean + '/')))) this.pages.delete(key);
    }
  }

  /** drops every page */
  clear() {
    this.pages.clear();
  }

  get size() {
    return this.pages.size;
  }
}
