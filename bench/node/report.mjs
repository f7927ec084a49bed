// Prints scripts/bench.sh's results as one table with the ratios the targets are stated in.
// Usage: node report.mjs <results dir>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const dir = process.argv[2];
const read = (f) => readFileSync(join(dir, f), 'utf8');
const timings = Object.fromEntries(
  read('timings.txt').trim().split('\n').map((l) => l.split(' ')).map(([k, v]) => [k, Number(v)]));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const require = createRequire(import.meta.url);
const version = (pkg) => require(`${pkg}/package.json`).version;

// Google Benchmark JSON: the median aggregate of each benchmark, in ns.
const gbench = (file) => {
  const out = {};
  for (const b of JSON.parse(read(file)).benchmarks) {
    const unit = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[b.time_unit];
    const name = b.run_name ?? b.name;
    if (b.aggregate_name && b.aggregate_name !== 'median') continue;
    out[name] = { ns: b.real_time * unit, b };
  }
  return out;
};

const pad = (s, n) => String(s).padEnd(n);
const num = (x, digits = 0) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const verdict = (ok) => (ok ? 'MET' : 'MISSED');
const lines = [];
const row = (label, value, ratio) => lines.push(`  ${pad(label, 58)} ${value.padStart(12)} ${ratio.padStart(10)}`);

// 1. decode + validate
const d = gbench('decode.json');
const ajv = JSON.parse(read('ajv.json')).ns_per_message;
const ours = d.BM_ParseResponse.ns;
const handExtract = d.BM_DomParseHandExtract.ns;
lines.push('1. Decode + validate one accepted elicitation/create response (bench/schemas/accepted_response.json,');
lines.push('   207 bytes; the spec contact form with every property kind), median of 5 runs');
row('path', 'ns/message', 'x ours');
const decodeRows = [
  ['elicitgen T::parse_response: bytes -> validated value (SAX)', ours],
  ['elicitgen DOM: nlohmann::json::parse + T::decode', d.BM_DomDecode.ns],
  ['nlohmann::json::parse alone (floor of a DOM decoder)', d.BM_DomParseOnly.ns],
  ['nlohmann SAX lexing, empty handler (floor of this parser)', d.BM_SaxLexOnly.ns],
  ['nlohmann::json::parse + hand-written extraction, no checks', handExtract],
  [`ajv ${version('ajv')} + ajv-formats: JSON.parse + validate (node ${process.versions.node})`, ajv],
  ['elicitgen validate() alone on the decoded value', d.BM_ValidateOnly.ns],
];
for (const [label, ns] of decodeRows) row(label, num(ns), num(ns / ours, 2));
lines.push(`  target: faster than ajv: ${num(ours)} vs ${num(ajv)} ns, ajv/ours = ${num(ajv / ours, 2)} -> ${verdict(ours < ajv)}`);
lines.push(`  target: decode+validate at most 25% over parse + extract: ours/(parse+extract) = ${num(ours / handExtract, 2)}` +
  ` (limit 1.25) -> ${verdict(ours <= 1.25 * handExtract)}`);
lines.push(`  validation's share of ours: ${num((100 * d.BM_ValidateOnly.ns) / ours, 1)}%;` +
  ` ours over the lexing floor: ${num((100 * (ours - d.BM_SaxLexOnly.ns)) / d.BM_SaxLexOnly.ns, 1)}%`);
lines.push('');

// 2. generator throughput
const files = timings.schema_files;
const qtRuns = timings.quicktype_invocations;
const egEach = timings.elicitgen_200_invocations_ms / files;
const qtEach = timings.quicktype_invocations_ms / qtRuns;
lines.push(`2. Generator throughput: ${files} schemas of 5-15 properties (bench/node/make_schemas.mjs), quicktype ${version('quicktype')} --lang c++`);
row('run', 'ms', 'x ours');
row(`elicitgen, one invocation for ${files} files`, num(timings.elicitgen_one_invocation_ms), '1.00');
row(`quicktype, one invocation for ${files} files`, num(timings.quicktype_one_invocation_ms),
  num(timings.quicktype_one_invocation_ms / timings.elicitgen_one_invocation_ms, 1));
row(`elicitgen, ${files} invocations (ms per invocation)`, num(egEach, 2), '1.00');
row(`quicktype, ${qtRuns} invocations (ms per invocation)`, num(qtEach, 1), num(qtEach / egEach, 1));
lines.push(`  target: at least 50x faster per invocation: ${num(qtEach / egEach, 1)}x -> ${verdict(qtEach / egEach >= 50)}`);
lines.push('');

// 3. compile time
const compile = (k) => median([1, 2, 3].map((r) => timings[`compile_${k}_ms_${r}`]));
const egMain = compile('elicitgen_main');
const egSource = compile('elicitgen_source');
const qtMain = compile('quicktype_main');
lines.push('3. Compile time, g++ -std=c++17 -O2 -c, median of 3 (bench/compile/, contact form schema)');
row('translation unit', 'ms', 'x ours');
row('elicitgen header + tiny main', num(egMain), '1.00');
row('quicktype header + tiny main', num(qtMain), num(qtMain / egMain, 1));
row('elicitgen generated .cpp (compiled once per schema file)', num(egSource), num(egSource / egMain, 1));
lines.push(`  target: header + main no slower than quicktype's: ${num(egMain)} vs ${num(qtMain)} ms -> ${verdict(egMain <= qtMain)}`);
lines.push(`  (a whole build of one type, main + generated .cpp: ${num(egMain + egSource)} ms vs quicktype's ${num(qtMain)} ms)`);
lines.push('');

// 4. runtime
const rt = JSON.parse(read('roundtrip.json')).benchmarks;
lines.push('4. Runtime over the in-memory transport (2 sessions, typed decode + validate included)');
row('measure', 'value', '');
for (const b of rt.filter((x) => x.name.startsWith('BM_FormElicitationRoundTrip'))) {
  const window = b.name.split('/')[1];
  row(`form elicitations per second, ${window} in flight`, num(b.items_per_second), '');
}
const mem = rt.find((x) => x.name.startsWith('BM_PendingElicitationMemory'));
row(`heap per pending elicitation, ${num(mem.pending)} in flight (bytes)`, num(mem.bytes_per_pending), '');

console.log(lines.join('\n'));
