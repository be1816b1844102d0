/** the row lock every module's transactions share (runtime/db/lock.ts) */
export { lockRow } from '../../../runtime/db/lock.js';
