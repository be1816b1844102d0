import { loadModel, ManifestError } from '../engine/load.js';
try {
  const m = loadModel(process.argv[2] ?? 'schemas');
  console.log(`${m.entities.length} entities in ${m.modules.length} modules: all manifests valid`);
} catch (e) {
  if (e instanceof ManifestError) { console.error(e.message); process.exit(1); }
  throw e;
}
