import { register } from '../../registry.js';
import { GenericTable } from './table.js';
import { GenericRow } from './row.js';
import { GenericForm } from './form.js';
import { AdminSelectInput } from './select-input.js';
import { GenericDefault, GenericFind } from './views.js';

/** the generic implementation of every admin variant, registered for every entity ('*' / '*') */
export function registerGenericAdmin() {
  register('*/*/find', GenericFind);
  register('*/*/admin-table', GenericTable);
  register('*/*/admin-table-row', GenericRow);
  register('*/*/admin-select-input', AdminSelectInput);
  register('*/*/admin-form', GenericForm);
  register('*/*/default', GenericDefault);
}
