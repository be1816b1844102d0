import { describe, it, expect } from 'vitest';
import { readTracker } from './reads.js';
import { ROWS_SHOWN, SHOWN_IN_PAGES } from '../../../web/storefront/paging.js';
import { FIELDS, FIRST } from '../../../runtime/crud/expand.js';
import type { PageData } from '../../../web/storefront/page.js';

const page = (widget: Record<string, unknown>, params: Record<string, Record<string, unknown>> = {}): PageData => ({
  context: { language: 'en', languages: ['en'], defaultLanguage: 'en', url: '/', params: params as never },
  title: 't',
  meta: {},
  before: [],
  content: [{ id: 'b1', module: 'blog', widget: widget as never }],
  after: [],
});

describe('the page data keeps what the render read', () => {
  const widget = () => ({
    id: 'w1', variant: 'slides', slug: 'w', adminTitle: 'Admin name', title: { en: 'Hello' },
    widgetsToSlides: [
      { slide: { id: 's1', variant: 'default', title: { en: 'One' }, body: 'long text one' } },
      { slide: { id: 's2', variant: 'default', title: { en: 'Two' }, body: 'long text two' } },
    ],
    widgetsToProducts: [{ product: { id: 'p1', title: { en: 'P' } } }],
  });

  it('a field read on one row of a list is kept on every row; unread fields and relations go; id stays, variant when read', () => {
    const data = page(widget());
    const reads = readTracker();
    const seen = reads.watched(data);
    const w = seen.content[0].widget as Record<string, any>;
    void w.title.en;
    void w.variant;
    // only the first slide is drawn (a slider), but every slide keeps its title for later
    void w.widgetsToSlides.map((l: any) => l).slice(0, 1).forEach((l: any) => l.slide.title.en);
    const kept = reads.kept(data).content[0].widget as Record<string, any>;
    expect(kept).toEqual({
      id: 'w1', variant: 'slides', title: { en: 'Hello' },
      // the slides' variants were not read (no Variant drew them): they are not shipped
      widgetsToSlides: [{ slide: { id: 's1', title: { en: 'One' } } }, { slide: { id: 's2', title: { en: 'Two' } } }],
    });
    // the data rendered from is not changed
    expect(data.content[0].widget).toEqual(widget());
  });

  it('a row enumerated (keys, a spread) keeps every field; a field tested with `in` is kept', () => {
    const data = page(widget());
    const reads = readTracker();
    const w = reads.watched(data).content[0].widget as Record<string, any>;
    void { ...w.widgetsToProducts[0].product };
    void ('slug' in w);
    const kept = reads.kept(data).content[0].widget as Record<string, any>;
    expect(kept.widgetsToProducts).toEqual([{ product: { id: 'p1', title: { en: 'P' } } }]);
    expect(kept.slug).toBe('w');
    expect(kept.adminTitle).toBeUndefined();
  });

  it('rows the url names are watched by their key', () => {
    const data = page({ id: 'w', variant: 'v' }, { 'blog.article': { id: 'a1', title: { en: 'A' }, description: 'body' } });
    const reads = readTracker();
    void (reads.watched(data).context.params['blog.article'] as Record<string, any>).title.en;
    expect(reads.kept(data).context.params['blog.article']).toEqual({ id: 'a1', title: { en: 'A' } });
  });
});

describe('plans learned from reads', async () => {
  const { LearnedReads } = await import('./reads.js');
  const { coversPlan, mergePlans } = await import('../../../runtime/crud/expand.js');
  const { loadModel } = await import('../../../runtime/generated.js');
  const { join } = await import('node:path');
  const { ROOT } = await import('../../../engine/codegen.js');
  const model = loadModel(join(ROOT, "generated"));
  const widget = model.byId['blog/widget'];

  it('nothing read yet walks everything; then only the relations read, each with what was read below it', () => {
    const learned = new LearnedReads();
    expect(learned.plan(model, widget, 'blog:list')).toBeUndefined();
    learned.add(['blog:list.title.en', 'blog:list.widgetsToArticles', 'blog:list.widgetsToArticles.article.title.en', 'blog:list.widgetsToArticles.article.articlesToFileStorageModuleFiles']);
    // a relation read and found empty: its rows' ids, nothing below them (not everything)
    expect(learned.plan(model, widget, 'blog:list')).toEqual({ widgetsToArticles: { articlesToFileStorageModuleFiles: { [FIELDS]: [] }, [FIELDS]: ['title'] }, [FIELDS]: ['title'] });
    // another variant of the same entity learns on its own
    expect(learned.plan(model, widget, 'blog:other')).toBeUndefined();
    // a row enumerated walks everything below it
    learned.add(['blog:list.widgetsToArticles.article.*']);
    expect(learned.plan(model, widget, 'blog:list')).toEqual({ widgetsToArticles: undefined, [FIELDS]: ['title'] });
  });

  it('a relation found empty reads ids only, merges without making its neighbour read everything, and a later read under it is a miss', () => {
    const learned = new LearnedReads();
    // one variant drew its articles' titles; another walked the same relation and found it empty
    learned.add(['blog:list.widgetsToArticles', 'blog:list.widgetsToArticles.article.title.en', 'blog:empty.widgetsToArticles']);
    const empty = learned.plan(model, widget, 'blog:empty');
    expect(empty).toEqual({ widgetsToArticles: { [FIELDS]: [] }, [FIELDS]: [] });
    const merged = mergePlans(learned.plan(model, widget, 'blog:list'), empty);
    expect(merged).toEqual({ widgetsToArticles: { [FIELDS]: ['title'] }, [FIELDS]: [] });
    // a row of the second variant gains an article, and its render reads the article's title: the plan it was
    // assembled with did not cover that, so the host draws it again with the grown plan
    learned.add(['blog:empty.widgetsToArticles.article.title.en']);
    expect(coversPlan(empty, learned.plan(model, widget, 'blog:empty'))).toBe(false);
    expect(learned.plan(model, widget, 'blog:empty')).toEqual({ widgetsToArticles: { [FIELDS]: ['title'] }, [FIELDS]: [] });
  });

  it('a render that read a relation its plan left out is a miss; plans merge to what either walks', () => {
    const used = { widgetsToArticles: {} };
    expect(coversPlan(used, { widgetsToArticles: {} })).toBe(true);
    expect(coversPlan(used, { widgetsToArticles: { articlesToFileStorageModuleFiles: undefined } })).toBe(false);
    expect(coversPlan(used, { widgetsToCategories: {} })).toBe(false);
    expect(coversPlan(undefined, { widgetsToCategories: {} })).toBe(true);
    expect(mergePlans({ a: {} }, { b: { c: {} } })).toEqual({ a: {}, b: { c: {} } });
    expect(mergePlans({ a: {} }, undefined)).toBeUndefined();
  });

  it('fields: a render that read a field its plan did not select is a miss; merged plans select what either reads', () => {
    const used = { widgetsToArticles: { [FIELDS]: ['title'] }, [FIELDS]: ['title', 'variant'] };
    expect(coversPlan(used, { widgetsToArticles: { [FIELDS]: ['title'] }, [FIELDS]: ['variant'] })).toBe(true);
    expect(coversPlan(used, { widgetsToArticles: { [FIELDS]: ['title', 'slug'] }, [FIELDS]: ['title'] })).toBe(false);
    expect(coversPlan(used, { widgetsToArticles: { [FIELDS]: ['title'] }, [FIELDS]: ['subtitle'] })).toBe(false);
    // a plan that selected every field covers any; one that selected some does not cover "every field"
    expect(coversPlan({ widgetsToArticles: {} }, { widgetsToArticles: { [FIELDS]: ['slug'] } })).toBe(true);
    expect(coversPlan({ [FIELDS]: ['title'] }, {})).toBe(false);
    expect(mergePlans({ a: { [FIELDS]: ['x'] }, [FIELDS]: ['t'] }, { a: { [FIELDS]: ['y'] }, [FIELDS]: ['u'] })).toEqual({ a: { [FIELDS]: ['x', 'y'] }, [FIELDS]: ['t', 'u'] });
    expect(mergePlans({ [FIELDS]: ['t'] }, {})?.[FIELDS]).toBeUndefined();
  });

  it('a relation shown a page at a time reads its first page and one row more, until a render reads past it', () => {
    const learned = new LearnedReads();
    learned.add(['blog:list.widgetsToArticles', 'blog:list.widgetsToArticles.article.title.en', 'blog:list.widgetsToArticles.$first']);
    const paged = learned.plan(model, widget, 'blog:list')!;
    expect(paged.widgetsToArticles).toEqual({ [FIELDS]: ['title'], [FIRST]: ROWS_SHOWN + 1 });
    // merged with a variant that reads them all, every row is read
    expect(mergePlans(paged, { widgetsToArticles: { [FIELDS]: ['title'] } })?.widgetsToArticles?.[FIRST]).toBeUndefined();
    // a render that read past the first page: every row, and the plan it was drawn with is a miss
    learned.add(['blog:list.widgetsToArticles.$all']);
    const all = learned.plan(model, widget, 'blog:list')!;
    expect(all.widgetsToArticles).toEqual({ [FIELDS]: ['title'] });
    expect(coversPlan(paged, all)).toBe(false);
    expect(coversPlan(all, paged)).toBe(true);
  });

  it('only the fields read are selected: a field read for the first time is in the next plan', () => {
    const learned = new LearnedReads();
    learned.add(['blog:list.widgetsToArticles', 'blog:list.widgetsToArticles.article', 'blog:list.widgetsToArticles.article.title', 'blog:list.widgetsToArticles.article.title.en']);
    const first = learned.plan(model, widget, 'blog:list')!;
    expect(first.widgetsToArticles?.[FIELDS]).toEqual(['title']);
    learned.add(['blog:list.widgetsToArticles.article.adminTitle']);
    const next = learned.plan(model, widget, 'blog:list')!;
    expect(next.widgetsToArticles?.[FIELDS]).toEqual(expect.arrayContaining(['title', 'adminTitle']));
    expect(coversPlan(first, next)).toBe(false);
  });
});

describe('a long relation shown a page at a time', () => {
  const long = () => ({
    id: 'w1', variant: 'cards',
    widgetsToProducts: Array.from({ length: 30 }, (_, i) => ({ id: `l${i}`, product: { id: `p${i}`, title: { en: `P${i}` }, slug: `p-${i}` } })),
  });
  /** what useShowMore and targets do: the far ends of every row, the relation marked, the first 24 drawn */
  const showFirst = (w: Record<string, any>) => {
    const items = w.widgetsToProducts.map((l: any) => l.product);
    w.widgetsToProducts[SHOWN_IN_PAGES]();
    for (const p of items.slice(0, ROWS_SHOWN)) void p.title.en;
  };

  it('ships its first 24 rows and how many it has; placeOf keeps the rest the same way', () => {
    const data = page(long());
    const reads = readTracker();
    showFirst(reads.watched(data).content[0].widget as Record<string, any>);
    const kept = reads.kept(data).content[0].widget as Record<string, any>;
    expect(kept.widgetsToProducts).toHaveLength(24);
    expect(kept.widgetsToProducts[23]).toEqual({ id: 'l23', product: { id: 'p23', title: { en: 'P23' } } });
    expect(kept['widgetsToProducts$more']).toEqual({ total: 30, at: 'blog:cards' });
    const place = reads.placeOf(data, 'blog:cards', 'w1', 'widgetsToProducts')!;
    expect(place.keepRows([{ id: 'l40', variant: 'x', product: { id: 'p40', title: { en: 'P40' }, slug: 'p-40' } }])).toEqual([{ id: 'l40', product: { id: 'p40', title: { en: 'P40' } } }]);
    // only a relation shown a page at a time, of the row named, at the place named
    expect(reads.placeOf(data, 'blog:cards', 'w2', 'widgetsToProducts')).toBeUndefined();
    expect(reads.placeOf(data, 'blog:other', 'w1', 'widgetsToProducts')).toBeUndefined();
    expect(reads.placeOf(data, 'blog:cards', 'w1', 'widgetsToSlides')).toBeUndefined();
    // the paths say so, for the next assembly's plan
    expect(reads.paths.has('blog:cards.widgetsToProducts.$first')).toBe(true);
    expect(reads.paths.has('blog:cards.widgetsToProducts.$all')).toBe(false);
  });

  it('the assembly read the first 25 and counted them all: the count is the total', () => {
    const widget = { ...long(), widgetsToProducts: long().widgetsToProducts.slice(0, 25), widgetsToProducts$count: 5000 };
    const data = page(widget);
    const reads = readTracker();
    showFirst(reads.watched(data).content[0].widget as Record<string, any>);
    const kept = reads.kept(data).content[0].widget as Record<string, any>;
    expect(kept.widgetsToProducts).toHaveLength(24);
    expect(kept['widgetsToProducts$more']).toEqual({ total: 5000, at: 'blog:cards' });
    expect(kept).not.toHaveProperty('widgetsToProducts$count');
  });

  it('a render that reads a row past the first page (another part of the widget draws them all) ships every row', () => {
    const data = page(long());
    const reads = readTracker();
    const w = reads.watched(data).content[0].widget as Record<string, any>;
    showFirst(w);
    void w.widgetsToProducts[29].product.slug;
    const kept = reads.kept(data).content[0].widget as Record<string, any>;
    expect(kept.widgetsToProducts).toHaveLength(30);
    expect(kept).not.toHaveProperty('widgetsToProducts$more');
    expect(reads.paths.has('blog:cards.widgetsToProducts.$all')).toBe(true);
  });

  it('a relation no render shows a page at a time ships whole', () => {
    const data = page(long());
    const reads = readTracker();
    const w = reads.watched(data).content[0].widget as Record<string, any>;
    for (const l of w.widgetsToProducts.slice(0, 3)) void l.product.title.en;
    expect((reads.kept(data).content[0].widget as Record<string, any>).widgetsToProducts).toHaveLength(30);
  });
});
