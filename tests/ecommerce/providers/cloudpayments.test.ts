import { runProviderCases } from './providers.case.js';
import { cloudPaymentsKit } from './cloudpayments.kit.js';

runProviderCases(cloudPaymentsKit('cloudpayments', 'CLOUDPAYMENTS'));
