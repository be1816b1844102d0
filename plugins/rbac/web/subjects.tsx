import { useQuery } from '@tanstack/react-query';
import { Package, UsersRound } from 'lucide-react';
import { CARD, CardGrid, GridItem, MoreLink, Section, SectionHeader } from '../../../web/storefront/blocks.js';
import { targets, usePage, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { cn } from '../../../web/ui/cn.js';
import { ROUTES, http, useSubject } from './session.js';
import { Avatar, EYEBROW, PublicSubject, SignedInSubject, subjectProfiles, subjectTitle } from './subject.js';
import { ButtonLink } from './ui.js';
import { useRbacWords } from './words.js';

/** the subjects a widget lists (widgetsToSubjects → subject), in their order */
export const widgetSubjects = (row: Expanded) => targets(row, 'widgetsToSubjects', 'subject');

/** the subject a widget is about: the page's (/rbac/subjects/[rbac.subject.slug]), else the widget's first */
export function useWidgetSubject(row: Expanded): Expanded | undefined {
  return usePage().params['rbac.subject'] ?? widgetSubjects(row)[0];
}

/** a subject's products (subjectsToEcommerceModuleProducts → ecommerceModuleProduct) */
export const subjectProducts = (subject: Expanded | undefined) => targets(subject, 'subjectsToEcommerceModuleProducts', 'ecommerceModuleProduct');

/** the heading of a subject's list (products, profiles): small, with an icon, under the subject's card */
function ListHeading({ icon: Icon, children }: { icon: typeof Package; children: string }) {
  return (
    <h2 className="mb-4 flex items-center gap-2 text-xl font-semibold tracking-tight text-slate-900">
      <Icon className="h-5 w-5 text-slate-500" aria-hidden />
      {children}
    </h2>
  );
}

function Empty({ children }: { children: string }) {
  return <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-500">{children}</p>;
}

/** 'rbac/subject/default': a subject as a card in a list — avatar, name, @slug, 'View profile'; never more than the public row */
export function SubjectListCard({ row: subject }: { row: Expanded }) {
  const t = useT();
  const w = useRbacWords();
  const name = subjectTitle(subject, t);
  const slug = typeof subject.slug === 'string' ? subject.slug : '';
  return (
    <article className={cn(CARD, 'items-start gap-4')}>
      <div className="flex min-w-0 items-center gap-4">
        <Avatar name={name} className="h-12 w-12 text-lg" />
        <div className="min-w-0">
          <h3 className="truncate text-lg font-semibold text-slate-900" title={name}>{name}</h3>
        </div>
      </div>
      {slug && <ButtonLink to={ROUTES.profile(slug)} variant="outline" className="mt-auto">{w('viewProfile')}</ButtonLink>}
    </article>
  );
}

/** 'rbac/widget/subject-list': the widget's subjects (picked in the admin through widgets-to-subjects) as cards */
export function SubjectList({ row }: { row: Expanded }) {
  const t = useT();
  const w = useRbacWords();
  const subjects = widgetSubjects(row);
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      {subjects.length ? (
        <CardGrid label={t(row.title) || w('subjects')}>
          {subjects.map((s) => (
            <GridItem key={s.id}>
              <Variant module="rbac" entity="subject" row={s} />
            </GridItem>
          ))}
        </CardGrid>
      ) : (
        <Empty>{w('noFoundItems')}</Empty>
      )}
    </Section>
  );
}

/** a product as a card when the ecommerce module draws none ('ecommerce/product/default' unregistered) */
function ProductFallbackCard({ product }: { product: Expanded }) {
  const t = useT();
  const slug = typeof product.slug === 'string' ? product.slug : '';
  const summary = t(product.shortDescription);
  return (
    <article className={CARD}>
      <h3 className="text-lg font-semibold text-slate-900">{t(product.title) || slug}</h3>
      {summary && <p className="mt-2 text-slate-600">{summary}</p>}
      {slug && (
        <div className="mt-auto pt-6">
          <MoreLink to={`/ecommerce/products/${slug}`} label={t(product.title) || slug} />
        </div>
      )}
    </article>
  );
}

/** products as cards, each drawn by the ecommerce module's product card */
function ProductCards({ products, label }: { products: Expanded[]; label: string }) {
  const w = useRbacWords();
  if (!products.length) return <Empty>{w('noProducts')}</Empty>;
  return (
    <CardGrid label={label}>
      {products.map((p) => (
        <GridItem key={p.id}>
          <Variant module="ecommerce" entity="product" row={p} variant="default" fallback={<ProductFallbackCard product={p} />} />
        </GridItem>
      ))}
    </CardGrid>
  );
}

const LIST_LIMIT = 100;

/** the signed-in subject's products, asked for in the browser through the public reads (relation, then products) */
function useOwnProducts(subjectId: string | undefined) {
  return useQuery({
    queryKey: ['rbac', 'subject-products', subjectId],
    enabled: !!subjectId,
    queryFn: async () => {
      const links = await http.request<{ ecommerceModuleProductId: string }[]>('GET', '/api/rbac/subjects-to-ecommerce-module-products', {
        query: { filters: { and: [{ column: 'subjectId', method: 'eq', value: subjectId }] }, limit: LIST_LIMIT },
      });
      if (!links.length) return [] as Expanded[];
      const ids = [...new Set(links.map((l) => l.ecommerceModuleProductId))];
      const products = await http.request<Expanded[]>('GET', '/api/ecommerce/products', { query: { filters: { and: [{ column: 'id', method: 'inArray', value: ids }] }, limit: LIST_LIMIT } });
      return ids.map((id) => products.find((p) => p.id === id)).filter((p): p is Expanded => !!p);
    },
  });
}

function OwnProducts({ label }: { label: string }) {
  const { me } = useSubject();
  const w = useRbacWords();
  const query = useOwnProducts(me?.id);
  if (!me) return null;
  if (query.isPending) {
    return (
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" aria-hidden>
        <Skeleton className="h-40 w-full rounded-xl" />
        <Skeleton className="h-40 w-full rounded-xl" />
      </div>
    );
  }
  if (query.isError) return <p role="alert" className="text-red-700">{w('productsFailed')}</p>;
  return <ProductCards products={query.data ?? []} label={label} />;
}

/**
 * 'rbac/widget/subject-overview-ecommerce-module-product-list': a subject's card and the products linked
 * to it (subjects-to-ecommerce-module-products). The subject is the page's, else the widget's first; on a
 * page about no subject, the signed-in subject's own (fetched in the browser, never in the page).
 */
export function SubjectOverviewWithProducts({ row }: { row: Expanded }) {
  const t = useT();
  const w = useRbacWords();
  const subject = useWidgetSubject(row);
  const title = t(row.title);
  const label = title || w('products');
  return (
    <section className={cn('mx-auto w-full max-w-7xl space-y-8 px-4 py-8 lg:py-12', row.className as string | undefined)}>
      {title && <p className={EYEBROW}>{title}</p>}
      {subject ? <PublicSubject subject={subject} withProfiles={false} /> : <SignedInSubject />}
      <div>
        <ListHeading icon={Package}>{w('products')}</ListHeading>
        {subject ? <ProductCards products={subjectProducts(subject)} label={label} /> : <OwnProducts label={label} />}
      </div>
    </section>
  );
}

/** 'rbac/widget/social-profile-list': a subject's social profiles as cards (the page's subject, else the widget's first) */
export function SocialProfileList({ row }: { row: Expanded }) {
  const t = useT();
  const subject = useWidgetSubject(row);
  const w = useRbacWords();
  const profiles = subjectProfiles(subject);
  const title = t(row.title) || w('profiles');
  return (
    <section className={cn('mx-auto w-full max-w-7xl px-4 pb-12', row.className as string | undefined)}>
      <ListHeading icon={UsersRound}>{title}</ListHeading>
      {profiles.length ? (
        <CardGrid label={title}>
          {profiles.map((p) => (
            <GridItem key={p.id}>
              <Variant module="social" entity="profile" row={p} variant="default" />
            </GridItem>
          ))}
        </CardGrid>
      ) : (
        <Empty>{w('noProfiles')}</Empty>
      )}
    </section>
  );
}
