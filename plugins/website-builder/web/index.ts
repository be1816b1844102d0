import { registerLazy } from '../../../web/registry.js';

const key = (entityVariant: string) => `website-builder/${entityVariant}`;
const each = <E extends string>(entity: string, variants: string[], component: E) => Object.fromEntries(variants.map((v) => [key(`${entity}/${v}`), component])) as Record<string, E>;

/** the website-builder module's web variants, each file's code loaded when a page shows one of its variants */
export function registerWebsiteBuilderWeb() {
  registerLazy('plugins/website-builder/web/content', () => import('./content.js'), {
    [key('widget/default')]: 'ContentWidget',
    [key('widget/content-default')]: 'ContentWidget',
    [key('widget/content-heading')]: 'ContentHeading',
    [key('widget/content-description')]: 'ContentDescription',
    [key('widget/content-divider')]: 'ContentDivider',
  });
  registerLazy('plugins/website-builder/web/content-lists', () => import('./content-lists.js'), {
    [key('widget/content-features-list')]: 'ContentFeaturesList',
    [key('widget/content-map')]: 'ContentMap',
    [key('widget/content-features-vacancy-list')]: 'ContentFeaturesVacancyList',
  });
  registerLazy('plugins/website-builder/web/navbar', () => import('./navbar.js'), { [key('widget/navbar-default')]: 'NavbarWidget' });
  registerLazy('plugins/website-builder/web/footer', () => import('./footer.js'), { [key('widget/footer-default')]: 'FooterWidget' });
  registerLazy('plugins/website-builder/web/slider', () => import('./slider.js'), { [key('slider/default')]: 'Slider' });
  registerLazy('plugins/website-builder/web/slide', () => import('./slide.js'), {
    [key('slide/default')]: 'BannerSlide',
    [key('slide/full-width-banner')]: 'BannerSlide',
    [key('slide/plain-container')]: 'PlainSlide',
  });
  registerLazy('plugins/website-builder/web/feature', () => import('./feature.js'), { [key('feature/default')]: 'FeatureCard', [key('feature/vacancy')]: 'VacancyCard' });
  registerLazy('plugins/website-builder/web/logotype', () => import('./logotype.js'), { [key('logotype/default')]: 'Logotype' });
  registerLazy('plugins/website-builder/web/button', () => import('./button.js'), {
    ...each('buttons-array', ['default', 'row', 'column'], 'ButtonsArrayView'),
    ...each('button', ['default', 'destructive', 'primary', 'secondary', 'outline', 'link', 'ghost'], 'ButtonLink'),
  });
}
