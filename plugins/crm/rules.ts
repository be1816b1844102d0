/**
 * The rules of a CRM form's values, one module shared by the server (plugins/crm/server/check.ts, which decides)
 * and the browser (plugins/crm/web/check.ts, which says the same in the page's language before sending): the
 * longest value, and what a value of each input type must look like.
 */

/** values are text of at most MAX_VALUE characters */
export const MAX_VALUE = 5000;

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export const TEL = /^\+?[0-9][0-9 ()./-]{1,30}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** a real calendar day written YYYY-MM-DD */
export const isDate = (v: string) => {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
};

/** an http or https address */
export const isWebUrl = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !/\s/.test(v);
  } catch {
    return false;
  }
};

/** whether a filled-in value (trimmed) fits an input's declared type; types without a rule take any text */
export function fitsType(type: string, v: string): boolean {
  switch (type) {
    case 'number':
      return NUMBER.test(v) && Number.isFinite(Number(v));
    case 'email':
      return EMAIL.test(v);
    case 'url':
      return isWebUrl(v);
    case 'tel':
      return TEL.test(v);
    case 'date':
      return isDate(v);
    default:
      return true;
  }
}
