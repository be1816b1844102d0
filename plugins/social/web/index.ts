import { registerLazy } from '../../../web/registry.js';

/** the social module's web variants */
export function registerSocialWeb() {
  registerLazy('plugins/social/web/profile', () => import('./profile.js'), {
    'social/profile/default': 'ProfileDefault',
    'social/profile/overview-default': 'ProfileOverviewDefault',
    'social/widget/default': 'SocialWidgetDefault',
  });
}
