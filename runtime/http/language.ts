import type { Context } from 'hono';

/** the configured languages (schemas/meta/languages.json): the default one's pages have no prefix */
export interface Languages {
  languages: string[];
  defaultLanguage: string;
}

/**
 * The configured language a url's path starts with ('/ru/…' → 'ru'), else undefined: the storefront's pages
 * carry their language as the first segment, the default language's none. Only a configured code is ever taken,
 * so what is built from it stays a path of this site.
 */
export function languageOfUrl(url: unknown, langs: Languages): string | undefined {
  if (typeof url !== 'string' || !url) return undefined;
  try {
    const first = new URL(url, 'http://local').pathname.split('/')[1] ?? '';
    return langs.languages.includes(first) ? first : undefined;
  } catch {
    return undefined;
  }
}

/** a storefront path in a language: as it is in the default language, under '/<code>' in another configured one */
export function pathIn(language: string | undefined, path: string, langs: Languages): string {
  return language && language !== langs.defaultLanguage && langs.languages.includes(language) ? `/${language}${path}` : path;
}

/**
 * The language a request was made in, for what is sent to its maker later (mails, return pages): the language of
 * the storefront page it was sent from (the Referer's first path segment, the default language's pages having
 * none); a request with no Referer (an API client) by its Accept-Language, the first configured language it names;
 * else the default language.
 */
export function requestLanguage(c: Context, langs: Languages): string {
  const referer = c.req.header('referer');
  if (referer) return languageOfUrl(referer, langs) ?? langs.defaultLanguage;
  for (const part of (c.req.header('accept-language') ?? '').split(',').slice(0, 20)) {
    const code = part.split(';')[0].trim().toLowerCase().split('-')[0];
    if (langs.languages.includes(code)) return code;
  }
  return langs.defaultLanguage;
}
