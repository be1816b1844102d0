import { createContext, useContext } from 'react';
import { targets, type Expanded } from '../../../web/storefront/context.js';
import type { Words } from '../../../web/storefront/words.js';
import type { CrmWord } from './words.js';
import { fitsType, MAX_VALUE } from '../rules.js';

/**
 * The form's checks in the browser, the server's rules (plugins/crm/server/check.ts, `checkFields`) with messages in
 * the page's language: a required input must be filled in (a blank value is none), a filled-in one must fit its
 * type (number, email, url, tel, date, one of its options) and be at most MAX_VALUE characters. The server checks
 * again; its causes are shown the same way (`serverProblems`). check.test.ts holds both to the same answers.
 */
export { MAX_VALUE };

/** one input as the checks need it (from its row: `inputOf`) */
export interface CheckedInput {
  key: string;
  type: string;
  required: boolean;
  options: string[];
}

/** field key → the message shown under it */
export type Problems = Record<string, string>;

/** the word for a value that does not fit an input's type */
const TYPE_WORD: Record<string, CrmWord> = { number: 'invalidNumber', email: 'invalidEmail', url: 'invalidUrl', tel: 'invalidTel', date: 'invalidDate' };
const CHOICES = new Set(['select', 'radio', 'checkbox']);

/** the word for a required input left empty: a choice is chosen, a lone checkbox ticked, anything else filled in */
function requiredWord(input: CheckedInput): CrmWord {
  if (input.type === 'checkbox' && !input.options.length) return 'requiredCheck';
  return CHOICES.has(input.type) ? 'requiredChoice' : 'required';
}

/** what is wrong with one input's values (a list: a checkbox group), or undefined; `badInput`: the browser could not read what was typed (a number field holding letters) */
export function inputProblem(input: CheckedInput, raw: string | string[] | undefined, w: Words<CrmWord>, badInput = false): string | undefined {
  const values = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).filter((v) => v.trim() !== '');
  if (!values.length) {
    if (badInput && TYPE_WORD[input.type]) return w(TYPE_WORD[input.type]);
    return input.required ? w(requiredWord(input)) : undefined;
  }
  if (values.join(', ').length > MAX_VALUE) return w('tooLong', { max: MAX_VALUE });
  if (input.options.length && CHOICES.has(input.type)) return values.every((v) => input.options.includes(v)) ? undefined : w('invalidOption');
  return fitsType(input.type, values[0].trim()) ? undefined : w(TYPE_WORD[input.type]);
}

/** the form's problems, by field; empty when it can be sent */
export function formProblems(inputs: CheckedInput[], values: Record<string, string | string[]>, w: Words<CrmWord>, badInput: (key: string) => boolean = () => false): Problems {
  const found: Problems = {};
  for (const input of inputs) {
    const problem = inputProblem(input, Object.hasOwn(values, input.key) ? values[input.key] : undefined, w, badInput(input.key));
    if (problem) found[input.key] = problem;
  }
  return found;
}

/**
 * The server's causes (a 400's `cause`) about the form's inputs, as messages in the page's language, by field; `rest`
 * holds the causes about no input of the form (said in a toast).
 */
export function serverProblems(inputs: CheckedInput[], causes: { field?: string; rule?: string; message: string }[], w: Words<CrmWord>): { found: Problems; rest: string[] } {
  const byKey = new Map(inputs.map((i) => [i.key, i]));
  const found: Problems = {};
  const rest: string[] = [];
  for (const cause of causes) {
    const input = cause.field === undefined ? undefined : byKey.get(cause.field);
    if (!input) {
      rest.push(cause.message);
      continue;
    }
    found[input.key] ??=
      cause.rule === 'required' ? w(requiredWord(input))
      : cause.rule === 'maxLength' ? w('tooLong', { max: MAX_VALUE })
      : cause.rule === 'enum' ? w('invalidOption')
      : (cause.rule === 'format' || cause.rule === 'type') && TYPE_WORD[input.type] ? w(TYPE_WORD[input.type])
      : cause.message;
  }
  return { found, rest };
}

/** the problems the form shows under its inputs (CrmFormDefault provides them, each CrmInput draws its own) */
export const ProblemsContext = createContext<Problems>({});
export const useProblem = (key: string): string | undefined => {
  const problems = useContext(ProblemsContext);
  return Object.hasOwn(problems, key) ? problems[key] : undefined;
};

/** the key an input's value is submitted under: its name, else its slug */
export const inputKey = (input: Expanded) => String(input.name || input.slug || input.id);

/** the checks' view of an input row; read while rendering, so the page ships what the checks use */
export const checkedInput = (row: Expanded): CheckedInput => ({
  key: inputKey(row),
  type: String(row.type ?? 'default'),
  required: row.isRequired === true,
  options: targets(row, 'inputsToOptions', 'option').map((o) => String(o.value)),
});
