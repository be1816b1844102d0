import { DIALECTS } from '../helpers/databases.js';
import { runCrudSuite } from './crud.case.js';

for (const d of DIALECTS) runCrudSuite(d.name, d.make);
