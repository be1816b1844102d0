import { eq } from 'drizzle-orm';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import type { Drizzle } from '../../../runtime/db/index.js';
import { lockRow } from '../../../runtime/db/lock.js';
import { badRequest } from '../../../runtime/http/errors.js';
import { fitsMinorUnits, minorDigits, minorUnitsRule } from '../../../runtime/money.js';
import type { PluginContext } from '../../../runtime/plugin.js';

/** the currency (slug) an amount has too many decimal places for, the strictest when several; undefined when it fits them all */
function tooPreciseFor(amount: unknown, slugs: string[]): string | undefined {
  if (typeof amount !== 'number') return undefined;
  return slugs.filter((slug) => !fitsMinorUnits(amount, slug)).sort((a, b) => minorDigits(a) - minorDigits(b))[0];
}

/** the 400 of a price that does not fit its currency, naming the field and the rule (`multipleOf`, as a schema's would) */
function refuse(field: string, message: string) {
  return badRequest(message, [{ field, rule: 'multipleOf', message }]);
}

/**
 * A price is an attribute's `number` linked to a currency (ecommerce/attributes-to-billing-module-currencies), and a
 * currency is paid in whole minor units (`minorDigits`, runtime/money.ts: JPY 0, USD 2, KWD 3). So every write that
 * would leave a linked number with more decimal places than one of its currencies has is refused, whatever path it
 * came by (the generic API and the admin, bulk writes, plugin routes, seeding), with a 400 naming the field:
 * - an attribute's `number` changed to one too precise for a currency it is linked to (`number`);
 * - a link made (or moved) between an attribute and a currency its number is too precise for (`billingModuleCurrencyId`,
 *   or `attributeId` when only that changes);
 * - a currency's `slug` changed to a code with fewer digits than a linked number needs (`slug`).
 * An attribute linked to no currency (a weight of 0.125) is not a price and stays free. Each check locks the rows it
 * reads (PostgreSQL), so a number changed while a link is made cannot slip past both checks.
 */
export function priceHooks(ctx: PluginContext): HookSet {
  const t = ctx.database.tables;
  const [a, ac, c] = [t['ecommerce/attribute'], t['ecommerce/attributes-to-billing-module-currencies'], t['billing/currency']];

  /** the slugs of the currencies an attribute is linked to */
  async function currenciesOf(tx: Drizzle, attributeId: string): Promise<string[]> {
    const rows: { slug: string }[] = await tx.select({ slug: c.slug }).from(ac).innerJoin(c, eq(c.id, ac.billingModuleCurrencyId)).where(eq(ac.attributeId, attributeId));
    return rows.map((r) => r.slug);
  }

  /** a link between the attribute and the currency is refused when the number does not fit the currency */
  async function checkLink(tx: Drizzle, attributeId: unknown, currencyId: unknown, field: string) {
    if (typeof attributeId !== 'string' || typeof currencyId !== 'string') return;
    await lockRow(ctx.database, tx, 'ecommerce/attribute', attributeId);
    await lockRow(ctx.database, tx, 'billing/currency', currencyId);
    const [attribute]: { number: number | null; slug: string }[] = await tx.select({ number: a.number, slug: a.slug }).from(a).where(eq(a.id, attributeId)).limit(1);
    const [currency]: { slug: string }[] = await tx.select({ slug: c.slug }).from(c).where(eq(c.id, currencyId)).limit(1);
    // a missing row is the repository's to name (rule `reference`)
    if (!attribute || !currency || !tooPreciseFor(attribute.number, [currency.slug])) return;
    throw refuse(field, `${field}: attribute ${attribute.slug} is a price of ${attribute.number}, which ${minorUnitsRule(currency.slug)}`);
  }

  return {
    'ecommerce/attribute': {
      // a new attribute is linked to nothing yet: its links are checked as they are made
      async beforeUpdate(data, { previous, tx }) {
        if (typeof data.number !== 'number') return;
        await lockRow(ctx.database, tx, 'ecommerce/attribute', previous.id);
        const slug = tooPreciseFor(data.number, await currenciesOf(tx, previous.id));
        if (slug) throw refuse('number', `number ${minorUnitsRule(slug)}`);
      },
    },
    'ecommerce/attributes-to-billing-module-currencies': {
      async beforeCreate(data, { tx }) {
        await checkLink(tx, data.attributeId, data.billingModuleCurrencyId, 'billingModuleCurrencyId');
      },
      async beforeUpdate(data, { previous, tx }) {
        const attributeId = data.attributeId ?? previous.attributeId;
        const currencyId = data.billingModuleCurrencyId ?? previous.billingModuleCurrencyId;
        if (attributeId === previous.attributeId && currencyId === previous.billingModuleCurrencyId) return;
        await checkLink(tx, attributeId, currencyId, currencyId === previous.billingModuleCurrencyId ? 'attributeId' : 'billingModuleCurrencyId');
      },
    },
    'billing/currency': {
      async beforeUpdate(data, { previous, tx }) {
        if (typeof data.slug !== 'string' || data.slug === previous.slug) return;
        await lockRow(ctx.database, tx, 'billing/currency', previous.id);
        const rows: { number: number | null }[] = await tx.select({ number: a.number }).from(ac).innerJoin(a, eq(a.id, ac.attributeId)).where(eq(ac.billingModuleCurrencyId, previous.id));
        const misfits = [...new Set(rows.map((r) => r.number).filter((n) => tooPreciseFor(n, [data.slug!])))];
        if (!misfits.length) return;
        const shown = misfits.slice(0, 5).join(', ') + (misfits.length > 5 ? ', …' : '');
        throw refuse('slug', `slug: ${misfits.length === 1 ? 'a linked price' : `${misfits.length} linked prices`} (${shown}) would not fit ${data.slug.toUpperCase()}: a price ${minorUnitsRule(data.slug)}`);
      },
    },
  };
}
