import { badRequest, type Cause } from '../../../runtime/http/errors.js';
import { fitsType, MAX_VALUE } from '../rules.js';

/** bounds of one request: values are text of at most MAX_VALUE characters (plugins/crm/rules.ts), at most MAX_FIELDS fields in the body */
export { MAX_VALUE };
export const MAX_FIELDS = 50;
/** the longest name a field that is not one of the form's inputs may have */
export const MAX_NAME = 100;

/** one input of a form as the check needs it: the key its value is sent under, its type, whether it is required, its option values */
export interface FormInput {
  key: string;
  type: string;
  required: boolean;
  /** the values of its options (select, radio, checkbox); empty when it has none */
  options: string[];
}

const CHECKED = new Set(['true', 'on', 'false']);

/** the values one submitted field holds: a list (a checkbox group) or a single value, each as text */
function valuesOf(key: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    throw badRequest(`${key} must be text`, [{ field: key, rule: 'type', message: `${key} must be text` }]);
  }
  // JSON.parse reads 1e400 as Infinity, which would be kept as the text "Infinity"
  if (list.some((v) => typeof v === 'number' && !Number.isFinite(v))) {
    throw badRequest(`${key} is a number too large to store`, [{ field: key, rule: 'finite', message: `${key} must be a finite number` }]);
  }
  return list.map(String);
}

/** what is wrong with one filled-in value of an input, by its declared type; undefined when it fits */
function typeProblem(input: FormInput, values: string[]): Cause | undefined {
  const { key, type, options } = input;
  if (options.length && ['select', 'radio', 'checkbox'].includes(type)) {
    if (type !== 'checkbox' && values.length > 1) return { field: key, rule: 'type', message: `${key} takes one value` };
    const wrong = values.find((v) => !options.includes(v));
    return wrong === undefined ? undefined : { field: key, rule: 'enum', message: `${key} must be one of: ${options.join(', ')}` };
  }
  if (values.length > 1) return { field: key, rule: 'type', message: `${key} takes one value` };
  const v = values[0].trim();
  if (type === 'checkbox') return CHECKED.has(v.toLowerCase()) ? undefined : { field: key, rule: 'type', message: `${key} must be true or false` };
  if (fitsType(type, v)) return undefined;
  return { field: key, rule: TYPE_PROBLEM[type].rule, message: `${key} ${TYPE_PROBLEM[type].must}` };
}

/** what a value that does not fit its input's type breaks (plugins/crm/rules.ts fitsType decides) */
const TYPE_PROBLEM: Record<string, { rule: string; must: string }> = {
  number: { rule: 'type', must: 'must be a number' },
  email: { rule: 'format', must: 'must be an email address' },
  url: { rule: 'format', must: 'must be an http or https address' },
  tel: { rule: 'format', must: 'must be a phone number' },
  date: { rule: 'format', must: 'must be a date (YYYY-MM-DD)' },
};

/**
 * Checks what was sent against a form's inputs, the one rule for every way a request arrives (a
 * visitor's form, a signed-in subject's request): a field that is not one of the form's inputs is
 * kept as text (the spec: a CRM form accepts any fields), a required input must be filled in, a filled-in value must fit its input's type (number,
 * email, url, tel, date, an option of a select, radio or checkbox group) and be at most MAX_VALUE
 * characters. Answers the fields as text (a list joined with ', '), or throws one 400 naming every
 * field and rule.
 */
export function checkFields(inputs: FormInput[], raw: Record<string, unknown>): Record<string, string> {
  const keys = Object.keys(raw);
  if (keys.length > MAX_FIELDS) throw badRequest(`Too many fields: at most ${MAX_FIELDS}`);
  const known = new Set(inputs.map((i) => i.key));
  const causes: Cause[] = [];
  // no prototype: a field named __proto__ is kept as a field like any other
  const fields: Record<string, string> = Object.create(null);
  // spec §validation: "CRM form accepts any fields": a field that is not one of the form's inputs (a hidden field,
  // a campaign tag) is kept as text too, held to the same bounds (text, at most MAX_VALUE characters, a name of at
  // most MAX_NAME); blank ones are left out, as blank inputs are
  for (const key of keys.filter((k) => !known.has(k))) {
    if (!key.trim() || key.length > MAX_NAME) {
      causes.push({ field: key.slice(0, MAX_NAME), rule: 'maxLength', message: `a field's name must be 1 to ${MAX_NAME} characters` });
      continue;
    }
    const values = valuesOf(key, raw[key])?.filter((v) => v.trim() !== '');
    if (!values?.length) continue;
    const text = values.join(', ');
    if (text.length > MAX_VALUE) causes.push({ field: key, rule: 'maxLength', message: `${key} must be at most ${MAX_VALUE} characters` });
    else fields[key] = text;
  }
  for (const input of inputs) {
    const values = Object.hasOwn(raw, input.key) ? valuesOf(input.key, raw[input.key])?.filter((v) => v.trim() !== '') : undefined;
    const text = values?.join(', ');
    if (!values?.length) {
      if (input.required) causes.push({ field: input.key, rule: 'required', message: `${input.key} is required` });
    } else if (text!.length > MAX_VALUE) {
      causes.push({ field: input.key, rule: 'maxLength', message: `${input.key} must be at most ${MAX_VALUE} characters` });
    } else {
      const problem = typeProblem(input, values);
      if (problem) causes.push(problem);
      else fields[input.key] = text!;
    }
  }
  if (causes.length) throw badRequest(causes.length === 1 ? causes[0].message : causes.map((x) => x.message).join('; '), causes);
  return fields;
}
