export * from '../../../runtime/http/rate-limit.js';
