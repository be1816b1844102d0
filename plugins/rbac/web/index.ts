import { registerLazy } from '../../../web/registry.js';

/**
 * The rbac module's web variants: the widget's screens by variant (schemas/rbac/widget.json) and the subject's
 * views, each file's code loaded when a page shows one of its screens.
 */
export function registerRbacWeb() {
  const widget = (variant: string) => `rbac/widget/${variant}`;
  registerLazy('plugins/rbac/web/subject', () => import('./subject.js'), {
    [widget('default')]: 'DefaultWidget',
    [widget('logout')]: 'Logout',
    [widget('subject-overview')]: 'SubjectOverview',
    [widget('social-profile-overview')]: 'SocialProfileOverview',
  });
  registerLazy('plugins/rbac/web/subjects', () => import('./subjects.js'), {
    'rbac/subject/default': 'SubjectListCard',
    [widget('subject-list')]: 'SubjectList',
    [widget('subject-overview-ecommerce-module-product-list')]: 'SubjectOverviewWithProducts',
    [widget('social-profile-list')]: 'SocialProfileList',
  });
  registerLazy('plugins/rbac/web/sign-in', () => import('./sign-in.js'), { [widget('select-method')]: 'SelectMethod', [widget('login')]: 'LoginWidget' });
  registerLazy('plugins/rbac/web/password-screens', () => import('./password-screens.js'), {
    [widget('registration')]: 'Registration',
    [widget('forgot-password')]: 'ForgotPassword',
    [widget('reset-password')]: 'ResetPassword',
    [widget('verify-email')]: 'VerifyEmail',
  });
  registerLazy('plugins/rbac/web/account-menu', () => import('./account-menu.js'), { [widget('account-menu')]: 'AccountMenu' });
  registerLazy('plugins/rbac/web/identity-settings', () => import('./identity-settings.js'), { [widget('identity-settings')]: 'IdentitySettings' });
  registerLazy('plugins/rbac/web/identity-create', () => import('./identity-create.js'), { [widget('identity-create-by-email')]: 'IdentityCreateByEmail' });
  registerLazy('plugins/rbac/web/login-form', () => import('./login-form.js'), { 'rbac/subject/login-form': 'LoginForm' });
}
