import type { ComponentType } from 'react';
import { register } from '../../../web/registry.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { ButtonLink, ButtonsArrayView } from './button.js';
import { ContentDescription, ContentDivider, ContentHeading, ContentWidget } from './content.js';
import { ContentFeaturesList, ContentFeaturesVacancyList, ContentMap } from './content-lists.js';
import { FeatureCard, VacancyCard } from './feature.js';
import { FooterWidget } from './footer.js';
import { Logotype } from './logotype.js';
import { NavbarWidget } from './navbar.js';
import { BannerSlide, PlainSlide } from './slide.js';
import { Slider } from './slider.js';

type Component = ComponentType<{ row: Expanded }>;

/** every storefront variant of the module, keyed by '<entity>/<variant>' */
export const WEBSITE_BUILDER_VARIANTS: Record<string, Component> = {
  'widget/default': ContentWidget,
  'widget/content-default': ContentWidget,
  'widget/navbar-default': NavbarWidget,
  'widget/footer-default': FooterWidget,
  'widget/content-heading': ContentHeading,
  'widget/content-description': ContentDescription,
  'widget/content-features-list': ContentFeaturesList,
  'widget/content-map': ContentMap,
  'widget/content-divider': ContentDivider,
  'widget/content-features-vacancy-list': ContentFeaturesVacancyList,
  'slider/default': Slider,
  'slide/default': BannerSlide,
  'slide/full-width-banner': BannerSlide,
  'slide/plain-container': PlainSlide,
  'feature/default': FeatureCard,
  'feature/vacancy': VacancyCard,
  'logotype/default': Logotype,
  ...Object.fromEntries(['default', 'row', 'column'].map((v) => [`buttons-array/${v}`, ButtonsArrayView])),
  ...Object.fromEntries(['default', 'destructive', 'primary', 'secondary', 'outline', 'link', 'ghost'].map((v) => [`button/${v}`, ButtonLink])),
};

/** the website-builder module's web variants */
export function registerWebsiteBuilderWeb() {
  for (const [key, component] of Object.entries(WEBSITE_BUILDER_VARIANTS)) register(`website-builder/${key}`, component);
}
