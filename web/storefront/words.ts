import { usePage } from './context.js';

/**
 * The storefront's interface strings ('Read more', 'Login', 'Oh no! Something went wrong...'): one
 * dictionary per language, keyed '<scope>.<key>'. Content (titles, descriptions) is not here: it comes
 * from the rows' language maps (`useT`). The page's language comes from the url's prefix (/ru/…) through
 * the page context; a key missing in a language falls back to English, the default language's words.
 *
 * Each module adds its own words with `defineWords(scope, { en, ru })` in its web folder; the storefront's
 * shared words are the 'storefront' scope below. English is the source: the spec's strings stay exactly
 * as the spec writes them in `en`, and every other language the site has must give every key (checked by
 * the type, and by web/storefront/words.test.tsx, which renders every registered variant in Russian).
 */

/** {name} placeholders in a text and their values */
export type WordVars = Record<string, string | number>;

/** the languages a module's words must cover (schemas/meta/languages.json) */
export interface ModuleWords<K extends string> {
  en: Record<K, string>;
  ru: Record<K, string>;
}

/** language → '<scope>.<key>' → text */
const dictionaries: Record<string, Record<string, string>> = Object.create(null);
const FALLBACK = 'en';

const fill = (text: string, vars?: WordVars) => (vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : whole)) : text);

/** the text of a key in a language: its own, else English, else the key itself (a missing word is visible) */
export function translate(key: string, language: string, vars?: WordVars): string {
  const text = dictionaries[language]?.[key] ?? dictionaries[FALLBACK]?.[key];
  return text === undefined ? key : fill(text, vars);
}

/** a copy of one language's dictionary ('<scope>.<key>' → text) */
export function dictionary(language: string): Record<string, string> {
  return { ...dictionaries[language] };
}

/** the languages that have words */
export const wordLanguages = () => Object.keys(dictionaries);

/** a translate function bound to a scope and a language, for code outside components (toasts, checks) */
export type Words<K extends string> = (key: K, vars?: WordVars) => string;

/**
 * Adds a scope's words to the dictionaries and gives the hook that reads them in the page's language.
 * @example
 * const useBlogWords = defineWords('blog', { en: { readMore: 'Read more' }, ru: { readMore: 'Читать далее' } });
 * // in a component: const w = useBlogWords(); <a>{w('readMore')}</a>
 */
export function defineWords<K extends string>(scope: string, words: ModuleWords<K> & Record<string, Partial<Record<K, string>>>): () => Words<K> {
  for (const [language, map] of Object.entries(words)) {
    const target = (dictionaries[language] ??= Object.create(null) as Record<string, string>);
    for (const [key, text] of Object.entries(map as Record<string, string>)) target[`${scope}.${key}`] = text;
  }
  return function useScopeWords() {
    const { language } = usePage();
    return (key: K, vars?: WordVars) => translate(`${scope}.${key}`, language, vars);
  };
}

/** the words every module's widgets share */
export const useWords = defineWords('storefront', {
  en: {
    more: 'More',
    readMore: 'Read more',
    loading: 'Loading...',
    widgetError: 'Oh no! Something went wrong...',
    serverError: 'Something went wrong',
    pageError: 'This page could not be shown.',
    reload: 'Reload',
    reloading: 'Reloading...',
    notAuthorized: 'Not authorized',
    noFoundItems: 'No found items',
    tryAgain: 'Try again',
    signIn: 'Sign in',
    login: 'Login',
    submit: 'Submit',
    sending: 'Sending...',
    close: 'Close',
    cancel: 'Cancel',
    yes: 'Yes',
    no: 'No',
    products: 'Products',
    categories: 'Categories',
    articles: 'Articles',
    language: 'Language',
    skipToContent: 'Skip to content',
    notifications: 'Notifications',
    showMore: 'Show {count} more of {total}',
    unreachable: 'The server could not be reached. Check your connection and try again.',
    tooManyAttempts: 'Too many attempts: try again in {seconds} seconds',
  },
  ru: {
    more: 'Подробнее',
    readMore: 'Читать далее',
    loading: 'Загрузка...',
    widgetError: 'Ой! Что-то пошло не так...',
    serverError: 'Произошла ошибка',
    pageError: 'Эту страницу не удалось показать.',
    reload: 'Перезагрузить',
    reloading: 'Перезагрузка...',
    notAuthorized: 'Нет доступа',
    noFoundItems: 'Ничего не найдено',
    tryAgain: 'Повторить',
    signIn: 'Войти',
    login: 'Войти',
    submit: 'Отправить',
    sending: 'Отправка...',
    close: 'Закрыть',
    cancel: 'Отмена',
    yes: 'Да',
    no: 'Нет',
    products: 'Товары',
    categories: 'Рубрики',
    articles: 'Статьи',
    language: 'Язык',
    skipToContent: 'Перейти к содержимому',
    notifications: 'Уведомления',
    showMore: 'Показать ещё {count} из {total}',
    unreachable: 'Не удалось связаться с сервером. Проверьте подключение и попробуйте ещё раз.',
    tooManyAttempts: 'Слишком много попыток: попробуйте снова через {seconds} с',
  },
});

/**
 * Each language by its own name (an endonym: the same on every page, so not a word of any one dictionary);
 * a language missing here is shown by its code.
 */
export const LANGUAGE_NAMES: Record<string, string> = { en: 'English', ru: 'Русский' };

export const languageName = (language: string): string => LANGUAGE_NAMES[language] ?? language.toUpperCase();
