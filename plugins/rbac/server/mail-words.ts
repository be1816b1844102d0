import { defineWords, translate, type WordVars } from '../../../web/storefront/words.js';

/**
 * What the accounts module writes in its mails, in each language the site has: a mail is written in the language
 * of the page its request was sent from (runtime/http/language.ts), and its links open the pages in that language.
 */
defineWords('rbac-mail', {
  en: {
    resetSubject: 'Reset your password',
    resetText: 'Someone asked to reset the password of your account.\n\nOpen this link within an hour to choose a new one:\n{link}\n\nYour reset code: {code}',
    verifySubject: 'Verify your email',
    verifyText:
      'Confirm that this address belongs to your account by opening this link within a day:\n{link}\n\nYour verification code: {code}\n\nIf you did not sign up or add this address, ignore this email.',
    notYou: 'If it was not you, reset your password at once:\n{link}',
    methodAddedSubject: 'A sign-in method was added to your account',
    methodAddedText: 'You can now sign in with {login}.',
    methodRemovedSubject: 'A sign-in method was removed from your account',
    methodRemovedText: 'You can no longer sign in with {login}.',
    emailAddedSubject: 'A sign-in email was added to your account',
    emailAddedText: 'The address {email} was added as a way to sign in to your account.',
    emailChangedSubject: 'Your sign-in email was changed',
    emailChangedText: 'The email you sign in with was changed from {previous} to {email}.',
    registeredAgainSubject: 'You already have an account',
    registeredAgainText:
      'Someone, maybe you, tried to create an account with this address, which already has one: nothing was changed.\n\nIf it was you, sign in:\n{signIn}\n\nForgot the password? Choose a new one:\n{reset}\n\nIf it was not you, ignore this email.',
    addressProvenSubject: 'Your email is proven: other sign-in methods were removed',
    addressProvenText:
      'The address {email} was proven with the code we mailed to it. Until then anyone could have registered it, so the account\'s other sign-in methods were removed ({logins}) and every session was ended. Add your own again in the account settings.',
    loginTelegram: 'the Telegram account {account}',
    loginWallet: 'the wallet {account}',
    loginEmail: 'the email {account}',
  },
  ru: {
    resetSubject: 'Сброс пароля',
    resetText: 'Кто-то попросил сбросить пароль вашей учётной записи.\n\nОткройте эту ссылку в течение часа, чтобы задать новый:\n{link}\n\nКод сброса: {code}',
    verifySubject: 'Подтвердите адрес почты',
    verifyText:
      'Подтвердите, что этот адрес принадлежит вашей учётной записи: откройте эту ссылку в течение суток:\n{link}\n\nКод подтверждения: {code}\n\nЕсли вы не регистрировались и не добавляли этот адрес, не обращайте внимания на это письмо.',
    notYou: 'Если это были не вы, сразу сбросьте пароль:\n{link}',
    methodAddedSubject: 'К вашей учётной записи добавлен способ входа',
    methodAddedText: 'Теперь вы можете входить с помощью {login}.',
    methodRemovedSubject: 'Из вашей учётной записи удалён способ входа',
    methodRemovedText: 'Вы больше не можете входить с помощью {login}.',
    emailAddedSubject: 'К вашей учётной записи добавлена почта для входа',
    emailAddedText: 'Адрес {email} добавлен как способ входа в вашу учётную запись.',
    emailChangedSubject: 'Почта для входа изменена',
    emailChangedText: 'Почта, с которой вы входите, изменена с {previous} на {email}.',
    registeredAgainSubject: 'У вас уже есть учётная запись',
    registeredAgainText:
      'Кто-то, возможно вы, пытался создать учётную запись с этим адресом, но она уже есть: ничего не изменено.\n\nЕсли это были вы, войдите:\n{signIn}\n\nЗабыли пароль? Задайте новый:\n{reset}\n\nЕсли это были не вы, не обращайте внимания на это письмо.',
    addressProvenSubject: 'Адрес подтверждён: другие способы входа удалены',
    addressProvenText:
      'Адрес {email} подтверждён кодом, который мы на него отправили. До этого его мог зарегистрировать кто угодно, поэтому другие способы входа удалены ({logins}), а все сеансы завершены. Добавьте свои снова в настройках учётной записи.',
    loginTelegram: 'аккаунта Telegram {account}',
    loginWallet: 'кошелька {account}',
    loginEmail: 'почты {account}',
  },
});

/** the changes of an account its addresses are told about: each has a subject and a text */
export type AccountChange = 'methodAdded' | 'methodRemoved' | 'emailAdded' | 'emailChanged';
type Key = `${AccountChange | 'registeredAgain' | 'addressProven'}Subject` | `${AccountChange | 'registeredAgain' | 'addressProven'}Text` | 'resetSubject' | 'resetText' | 'verifySubject' | 'verifyText' | 'notYou' | 'loginTelegram' | 'loginWallet' | 'loginEmail';

/** a text of the accounts module's mails in a language */
export const rbacMailWord = (key: Key, language: string, vars?: WordVars): string => translate(`rbac-mail.${key}`, language, vars);

/** a login as a mail names it ('the wallet 0x…'), by its provider */
export const loginWord = (provider: unknown, account: string, language: string): string =>
  rbacMailWord(provider === 'telegram' ? 'loginTelegram' : provider === 'email_and_password' ? 'loginEmail' : 'loginWallet', language, { account });
