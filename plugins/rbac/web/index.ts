import { register } from '../../../web/registry.js';
import { LoginForm } from './login-form.js';

/** the rbac module's web variants */
export function registerRbacWeb() {
  register('rbac/subject/login-form', LoginForm);
}
