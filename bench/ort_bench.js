// Times ONNX Runtime (onnxruntime-node) on the models of DIR/ort_cases.tsv (ort_cases.py): for 1 and 2
// intra-op threads, the median of RUNS session.run calls after a warm-up. Prints name, ms (1 thread),
// ms (2 threads), tab-separated.
//
//   node ort_bench.js ORT_MODULE_DIR DIR RUNS
'use strict';
const fs = require('fs');
const path = require('path');

const [moduleDir, dir, runsText] = process.argv.slice(2);
const ort = require(path.resolve(moduleDir, 'node_modules', 'onnxruntime-node'));
const runs = Number(runsText || 5);

// A .npy file (version 1 or 2 header, C order, little-endian) as an onnxruntime Tensor.
function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLength;
  const header = bytes.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter((s) => s.trim()).map(Number);
  const data = bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + bytes.length);
  const types = { '<f4': ['float32', Float32Array], '<f2': ['float16', Uint16Array], '|i1': ['int8', Int8Array] };
  const [type, Array_] = types[descr];
  return new ort.Tensor(type, new Array_(data), shape);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(model, x, threads) {
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
  });
  await session.run({ x });
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await session.run({ x });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await session.release();
  return median(samples);
}

(async () => {
  for (const line of fs.readFileSync(path.join(dir, 'ort_cases.tsv'), 'utf8').split('\n')) {
    if (!line) continue;
    const [name, model, input] = line.split('\t');
    const x = readNpy(input);
    const t1 = await time(model, x, 1);
    const t2 = await time(model, x, 2);
    console.log(`${name}\t${t1}\t${t2}`);
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
