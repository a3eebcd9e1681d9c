// Runs every model of a manifest through ONNX Runtime for Node in one process and records, per case,
// whether the session was created and ran, and each output's type, dims and raw data file.
//   node ort_runner.js ORT_PACKAGE_DIR MANIFEST.json RESULTS.json
'use strict';
const fs = require('fs');
const path = require('path');

const [ortDir, manifestPath, resultsPath] = process.argv.slice(2);
const ort = require(path.resolve(ortDir));

const arrays = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, uint8: Uint8Array,
};

function readInput(dir, input) {
  const bytes = fs.readFileSync(path.join(dir, input.file));
  const Array = arrays[input.type];
  const copy = new Uint8Array(bytes).buffer;
  return new ort.Tensor(input.type, new Array(copy), input.dims);
}

async function runCase(dir, c) {
  let session;
  try {
    session = await ort.InferenceSession.create(path.join(dir, c.model), { graphOptimizationLevel: 'disabled' });
  } catch (e) {
    return { created: false, ran: false, error: String(e.message || e).split('\n')[0] };
  }
  try {
    const feeds = { [session.inputNames[0]]: readInput(dir, c.input) };
    const out = await session.run(feeds);
    const outputs = session.outputNames.map((name, i) => {
      const t = out[name];
      const file = `${c.id}.ort${i}.bin`;
      fs.writeFileSync(path.join(dir, file), Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      return { type: t.type, dims: t.dims.map(Number), file };
    });
    return { created: true, ran: true, outputs };
  } catch (e) {
    return { created: true, ran: false, error: String(e.message || e).split('\n')[0] };
  } finally {
    await session.release();
  }
}

async function main() {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const dir = path.dirname(path.resolve(manifestPath));
  const results = { version: ort.env.versions.common, cases: {} };
  for (const c of manifest.cases) results.cases[c.id] = await runCase(dir, c);
  fs.writeFileSync(resultsPath, JSON.stringify(results));
}

main().catch((e) => { console.error(e); process.exit(1); });
