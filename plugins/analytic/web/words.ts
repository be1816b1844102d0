import { defineWords } from '../../../web/storefront/words.js';

/** the metric widget's captions (web/storefront/words.ts): one per metric, then the period */
export const useAnalyticWords = defineWords('analytic', {
  en: { 'page-view': 'views', 'sign-up': 'sign-ups', 'add-to-cart': 'added to cart', checkout: 'checkouts', payment: 'orders paid', revenue: 'revenue', days: 'in the last {n} days' },
  ru: { 'page-view': 'просмотров', 'sign-up': 'регистраций', 'add-to-cart': 'добавлено в корзину', checkout: 'оформлений заказа', payment: 'оплаченных заказов', revenue: 'выручка', days: 'за последние {n} дн.' },
});
