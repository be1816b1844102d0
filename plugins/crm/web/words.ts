import { defineWords } from '../../../web/storefront/words.js';

const en = {
  form: 'Form',
  submitted: 'Form submitted successfully',
  signedIn: 'You are signed in: your request is linked to your account.',
  unknownInput: 'Unknown input type',
  // the form's checks (check.ts), shown under the field
  required: 'Fill in this field',
  requiredChoice: 'Choose an option',
  requiredCheck: 'Tick this box to continue',
  invalidEmail: 'Enter an email address, like name@example.com',
  invalidNumber: 'Enter a number',
  invalidUrl: 'Enter a web address starting with http:// or https://',
  invalidTel: 'Enter a phone number',
  invalidDate: 'Enter a date',
  invalidOption: 'Choose one of the options',
  tooLong: 'Use at most {max} characters',
  notSent: 'The form was not sent: check the marked fields',
};

/** a key of the crm words */
export type CrmWord = keyof typeof en;

/** the contact forms' own interface strings (web/storefront/words.ts); spec texts stay exact in English */
export const useCrmWords = defineWords<CrmWord>('crm', {
  en,
  ru: {
    form: 'Форма',
    submitted: 'Форма отправлена',
    signedIn: 'Вы вошли: заявка будет связана с вашим аккаунтом.',
    unknownInput: 'Неизвестный тип поля',
    required: 'Заполните это поле',
    requiredChoice: 'Выберите вариант',
    requiredCheck: 'Отметьте, чтобы продолжить',
    invalidEmail: 'Введите адрес почты, например name@example.com',
    invalidNumber: 'Введите число',
    invalidUrl: 'Введите адрес сайта, начинающийся с http:// или https://',
    invalidTel: 'Введите номер телефона',
    invalidDate: 'Введите дату',
    invalidOption: 'Выберите один из вариантов',
    tooLong: 'Не длиннее {max} символов',
    notSent: 'Форма не отправлена: проверьте отмеченные поля',
  },
});
