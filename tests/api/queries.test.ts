import { DIALECTS } from '../helpers/databases.js';
import { runQuerySuite } from './queries.case.js';

for (const d of DIALECTS) runQuerySuite(d.name, d.make);
