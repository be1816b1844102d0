import { register } from '../../../web/registry.js';
import { ProfileDefault, ProfileOverviewDefault, SocialWidgetDefault } from './profile.js';

/** the social module's web variants */
export function registerSocialWeb() {
  register('social/profile/default', ProfileDefault);
  register('social/profile/overview-default', ProfileOverviewDefault);
  register('social/widget/default', SocialWidgetDefault);
}
