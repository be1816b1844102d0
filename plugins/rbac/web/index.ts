import { register } from '../../../web/registry.js';
import { LoginForm } from './login-form.js';
import { AccountMenu } from './account-menu.js';
import { IdentitySettings } from './identity-settings.js';
import { ForgotPassword, Registration, ResetPassword, VerifyEmail } from './password-screens.js';
import { LoginWidget, SelectMethod } from './sign-in.js';
import { DefaultWidget, Logout, SocialProfileOverview, SubjectOverview } from './subject.js';
import { SocialProfileList, SubjectList, SubjectListCard, SubjectOverviewWithProducts } from './subjects.js';
import { IdentityCreateByEmail } from './identity-create.js';

export { LoginForm } from './login-form.js';
export { Authorized, isAuthorized } from './authorized.js';
export { REFRESH_KEY, shortAddress, useSubject, type Me, type Identity, type SubjectStatus } from './session.js';

/** the rbac widget's screens by variant (schemas/rbac/widget.json) */
export const RBAC_WIDGET_VARIANTS = {
  default: DefaultWidget,
  'select-method': SelectMethod,
  login: LoginWidget,
  registration: Registration,
  'forgot-password': ForgotPassword,
  'reset-password': ResetPassword,
  'verify-email': VerifyEmail,
  logout: Logout,
  'account-menu': AccountMenu,
  'identity-settings': IdentitySettings,
  'identity-create-by-email': IdentityCreateByEmail,
  'subject-overview': SubjectOverview,
  'subject-list': SubjectList,
  'subject-overview-ecommerce-module-product-list': SubjectOverviewWithProducts,
  'social-profile-list': SocialProfileList,
  'social-profile-overview': SocialProfileOverview,
} as const;

/** the rbac module's web variants */
export function registerRbacWeb() {
  register('rbac/subject/login-form', LoginForm);
  register('rbac/subject/default', SubjectListCard);
  for (const [variant, component] of Object.entries(RBAC_WIDGET_VARIANTS)) register(`rbac/widget/${variant}`, component);
}
