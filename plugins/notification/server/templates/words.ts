import { defineWords, translate, type WordVars } from '../../../../web/storefront/words.js';

/**
 * The words of the templates' own frame (footers, the order template's sentence, its button), in each language
 * the site has (web/storefront/words.ts, the storefront's dictionaries): a message is laid out in its `language`.
 * What a module writes in a message (its subject and text) it writes in that language itself.
 */
defineWords('mail', {
  en: {
    footer: 'You get this email because of your account or your role on this site.',
    resetFooter: 'If you did not ask for this, ignore this email: your password stays as it is.',
    notification: 'Notification',
    resetSubject: 'Reset your password',
    verifySubject: 'Verify your email',
    accountChangedSubject: 'Your account changed',
    orderSubject: 'Order #{id}: {status}',
    orderNow: 'Your order {id} is now {status}{was}.',
    orderNowAdmin: 'Order {id} is now {status}{was}.',
    orderWas: ' (was {status})',
    seeOrder: 'See the order',
    orderDigestSubject: 'Orders: {count} status changes',
  },
  ru: {
    footer: 'Вы получили это письмо, потому что у вас есть учётная запись или роль на этом сайте.',
    resetFooter: 'Если вы этого не запрашивали, не обращайте внимания на это письмо: пароль останется прежним.',
    notification: 'Уведомление',
    resetSubject: 'Сброс пароля',
    verifySubject: 'Подтвердите адрес почты',
    accountChangedSubject: 'Ваша учётная запись изменена',
    orderSubject: 'Заказ #{id}: {status}',
    orderNow: 'Статус вашего заказа {id}: {status}{was}.',
    orderNowAdmin: 'Статус заказа {id}: {status}{was}.',
    orderWas: ' (был: {status})',
    seeOrder: 'Открыть заказ',
    orderDigestSubject: 'Заказы: изменений статуса — {count}',
  },
});

export type MailWord = 'footer' | 'resetFooter' | 'notification' | 'resetSubject' | 'verifySubject' | 'accountChangedSubject' | 'orderSubject' | 'orderNow' | 'orderNowAdmin' | 'orderWas' | 'seeOrder' | 'orderDigestSubject';

/** a word of the templates' frame in a language (English when the language has none) */
export const mailWord = (key: MailWord, language: string | undefined, vars?: WordVars): string => translate(`mail.${key}`, language ?? 'en', vars);
