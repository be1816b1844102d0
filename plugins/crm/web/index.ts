import { register } from '../../../web/registry.js';
import { FormListDefault, FormListWide } from './form-list.js';
import { CrmFormDefault } from './form.js';
import { CrmInput } from './input.js';

/** the crm module's web variants: widgets list forms, a form draws its inputs, an input's control follows its type */
export function registerCrmWeb() {
  register('crm/widget/default', FormListDefault);
  register('crm/widget/form-list-default', FormListDefault);
  register('crm/widget/form-list-wide', FormListWide);
  register('crm/form/default', CrmFormDefault);
  for (const variant of ['default', 'text-default', 'textarea-default', 'number-default']) register(`crm/input/${variant}`, CrmInput);
}
