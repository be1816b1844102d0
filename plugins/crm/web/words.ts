import { defineWords } from '../../../web/storefront/words.js';

/** the contact forms' own interface strings (web/storefront/words.ts); spec texts stay exact in English */
export const useCrmWords = defineWords('crm', {
  en: {
    form: 'Form',
    submitted: 'Form submitted successfully',
    signedIn: 'You are signed in: your request is linked to your account.',
    unknownInput: 'Unknown input type',
  },
  ru: {
    form: 'Форма',
    submitted: 'Форма отправлена',
    signedIn: 'Вы вошли: заявка будет связана с вашим аккаунтом.',
    unknownInput: 'Неизвестный тип поля',
  },
});
