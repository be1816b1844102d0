import { DIALECTS } from '../helpers/databases.js';
import { runWriteSuite } from './writes.case.js';

for (const d of DIALECTS) runWriteSuite(d.name, d.make);
