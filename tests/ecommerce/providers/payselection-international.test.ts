import { runProviderCases } from './providers.case.js';
import { payselectionKit } from './payselection.kit.js';

runProviderCases(payselectionKit('payselection-international', 'PAYSELECTION_INTERNATIONAL'));
