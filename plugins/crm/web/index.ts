import { registerLazy } from '../../../web/registry.js';

/** the crm module's web variants: widgets list forms, a form draws its inputs, an input's control follows its type */
export function registerCrmWeb() {
  registerLazy('plugins/crm/web/form-list', () => import('./form-list.js'), {
    'crm/widget/default': 'FormListDefault',
    'crm/widget/form-list-default': 'FormListDefault',
    'crm/widget/form-list-wide': 'FormListWide',
  });
  registerLazy('plugins/crm/web/form', () => import('./form.js'), { 'crm/form/default': 'CrmFormDefault' });
  registerLazy('plugins/crm/web/input', () => import('./input.js'), Object.fromEntries(['default', 'text-default', 'textarea-default', 'number-default'].map((v) => [`crm/input/${v}`, 'CrmInput' as const])));
}
