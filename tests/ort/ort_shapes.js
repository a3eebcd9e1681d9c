// Loads every model of a manifest in ONNX Runtime for Node, graph optimisation off, and has it write the model
// it loaded (optimizedModelFilePath): that copy holds the types and dims ONNX Runtime's inference found for the
// values the model lists in value_info. Records, per case, whether the session was created.
//   node ort_shapes.js ORT_PACKAGE_DIR MANIFEST.json RESULTS.json
// MANIFEST: {"cases": [{"id": ..., "model": path, "written": path}]}; paths relative to the manifest's folder.
'use strict';
const fs = require('fs');
const path = require('path');

const [ortDir, manifestPath, resultsPath] = process.argv.slice(2);
const ort = require(path.resolve(ortDir));

async function loadCase(dir, c) {
  const options = { graphOptimizationLevel: 'disabled', optimizedModelFilePath: path.join(dir, c.written) };
  try {
    const session = await ort.InferenceSession.create(path.join(dir, c.model), options);
    await session.release();
    return { created: true };
  } catch (e) {
    return { created: false, error: String(e.message || e).split('\n')[0] };
  }
}

async function main() {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const dir = path.dirname(path.resolve(manifestPath));
  const results = { version: ort.env.versions.common, cases: {} };
  for (const c of manifest.cases) results.cases[c.id] = await loadCase(dir, c);
  fs.writeFileSync(resultsPath, JSON.stringify(results));
}

main().catch((e) => { console.error(e); process.exit(1); });
