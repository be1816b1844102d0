import { defineWords } from '../../../web/storefront/words.js';

/** the blog widgets' own interface strings (web/storefront/words.ts); 'Read more' and 'More' are the storefront's */
export const useBlogWords = defineWords('blog', {
  en: {
    viewProduct: 'View product',
    relatedProducts: 'Related products',
    signInToRead: 'Sign in to read this article',
    membersOnly: 'The rest of this article is for members. It takes a minute to sign in or create an account.',
    privateFailed: 'The members-only part could not be loaded.',
    noArticles: 'No articles yet',
    latestFailed: 'The latest articles could not be loaded.',
  },
  ru: {
    viewProduct: 'Посмотреть товар',
    relatedProducts: 'Связанные товары',
    signInToRead: 'Войдите, чтобы прочитать статью',
    membersOnly: 'Продолжение статьи доступно участникам. Войти или создать аккаунт можно за минуту.',
    privateFailed: 'Не удалось загрузить часть для участников.',
    noArticles: 'Статей пока нет',
    latestFailed: 'Не удалось загрузить последние статьи.',
  },
});
