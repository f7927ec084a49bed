// Prints scripts/bench.sh's results as one table with the ratios the targets are stated in.
// Usage: node report.mjs <results dir>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const dir = process.argv[2];
const read = (f) => readFileSync(join(dir, f), 'utf8');
// Sections not run (scripts/bench.sh BENCH_ONLY) have no files and are left out.
const exists = (f) => { try { read(f); return true; } catch { return false; } };
const timings = Object.fromEntries(
  read('timings.txt').trim().split('\n').filter(Boolean).map((l) => l.split(' ')).map(([k, v]) => [k, Number(v)]));
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
if (exists('decode.json')) {
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
}

// 2. generator throughput
if (timings.schema_files) {
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
}

// 3. compile time
if (timings.compile_elicitgen_main_ms_1) {
const compile = (k) => median([1, 2, 3].map((r) => timings[`compile_${k}_ms_${r}`]));
const egMain = compile('elicitgen_main');
const egSource = compile('elicitgen_source');
const qtMain = compile('quicktype_main');
const baseline = timings.compile_json_baseline_ms_1 ? compile('json_baseline') : NaN;
lines.push('3. Compile time, g++ -std=c++17 -O2 -c, median of 3 (bench/compile/, contact form schema)');
row('translation unit', 'ms', 'x json.hpp + one parse');
row('a TU including nlohmann/json.hpp, parsing one value', num(baseline), '1.00');
row('elicitgen generated .cpp (compiled once per schema file)', num(egSource), num(egSource / baseline, 2));
row('elicitgen header + tiny main', num(egMain), num(egMain / baseline, 2));
row('quicktype header + tiny main', num(qtMain), num(qtMain / baseline, 2));
lines.push(`  target: generated .cpp at most 0.5x the json.hpp TU: ${num(egSource / baseline, 2)}x -> ${verdict(egSource / baseline <= 0.5)}`);
lines.push(`  target: header + main at most 0.1x quicktype's: ${num(egMain / qtMain, 2)}x -> ${verdict(egMain / qtMain <= 0.1)}`);
lines.push(`  (a whole build of one type, main + generated .cpp: ${num(egMain + egSource)} ms vs quicktype's ${num(qtMain)} ms)`);
lines.push('');
}

// 4. runtime
const rt = exists('roundtrip.json') ? JSON.parse(read('roundtrip.json')).benchmarks : [];
if (rt.length) {
lines.push('4. Runtime over the in-memory transport (2 sessions, typed decode + validate included)');
row('measure', 'value', '');
for (const b of rt.filter((x) => x.name.startsWith('BM_FormElicitationRoundTrip/'))) {
  const window = b.name.split('/')[1];
  row(`form elicitations per second, ${window} in flight`, num(b.items_per_second), '');
  row(`  CPU per round trip, all threads (us)`, num(b.cpu_us_per_round_trip, 1), '');
}
for (const b of rt.filter((x) => x.name.startsWith('BM_FormElicitationFromAnotherThread/'))) {
  const window = b.name.split('/')[1];
  row(`  started from a third thread, ${window} in flight`, num(b.items_per_second), '');
}
const mem = rt.find((x) => x.name.startsWith('BM_PendingElicitationMemory'));
if (mem?.error_occurred) lines.push(`  heap per pending elicitation: the benchmark failed (${mem.error_message})`);
else if (mem) row(`heap per pending elicitation, ${num(mem.pending)} in flight (bytes)`, num(mem.bytes_per_pending), '');
}


// 5. and 6. Streamable HTTP (bench/http_load.cpp); sections skipped when their files are missing.
const readJson = (f) => JSON.parse(read(f));
const cores = exists('nproc.txt') ? read('nproc.txt').trim() : '?';
const kib = (x) => num(x, 1);
const ms = (x) => num(x, 1);
const perUser = (r) => (r.waiting_resources.rss_kib - r.baseline.rss_kib) / Math.max(1, r.waiting);
const threadsAdded = (r) => r.waiting_resources.threads - r.baseline.threads;
const httpUsers = [1000, 10000].filter((n) => exists(`wait-elicitgen-${n}.json`));
if (httpUsers.length) {
  const tsVersion = JSON.parse(readFileSync(join(dir, '..', '..', 'bench', 'ts-server', 'node_modules',
    '@modelcontextprotocol', 'server-everything', 'package.json'), 'utf8')).version;
  lines.push('');
  lines.push(`5. Users waiting in a form over Streamable HTTP, loopback, ${cores} cores; one client thread (bench/http_load.cpp).`);
  lines.push('   RSS and threads of the server process while all wait, minus after startup + 3 warm-up clients;');
  lines.push('   new client = connect, initialize, notifications/initialized, ping, sequential, while they wait.');
  lines.push(`   elicitgen: bench/http_bench_server.cpp (the sample server + github_username_async); TS: server-everything`);
  lines.push(`   ${tsVersion} streamableHttp, trigger-elicitation-request (node ${process.versions.node})`);
  row('measure', 'elicitgen', 'TS');
  row('', '', 'x ours');
  for (const n of httpUsers) {
    const eg = readJson(`wait-elicitgen-${n}.json`);
    const ts = exists(`wait-ts-${n}.json`) ? readJson(`wait-ts-${n}.json`) : null;
    const pair = (label, f, fmt, ratio = true) => {
      const a = f(eg);
      const b = ts ? f(ts) : NaN;
      lines.push(`  ${pad(label, 58)} ${fmt(a).padStart(12)} ${(ts ? fmt(b) : '-').padStart(10)}` +
        (ratio && ts && a > 0 ? `  ${num(b / a, 1)}x` : ''));
    };
    lines.push(`  N = ${num(n)}`);
    pair('  users waiting in their form (elicitation/create read)', (r) => r.waiting, num, false);
    pair('  RSS per waiting user (KiB)', perUser, kib);
    pair('  RSS while waiting (MiB)', (r) => r.waiting_resources.rss_kib / 1024, (x) => num(x, 1));
    pair('  server threads while waiting (whole process)', (r) => r.waiting_resources.threads,
      (x) => String(x), false);
    pair('    of which added while they wait', threadsAdded, (x) => String(x), false);
    pair('  new client initialize + ping p50 (ms)', (r) => r.new_client.p50_ms, ms);
    pair('  new client initialize + ping p99 (ms)', (r) => r.new_client.p99_ms, ms);
    pair('  calls completed with their answer after all answered', (r) => r.completed, num, false);
    pair('  time to open all sessions and calls (s)', (r) => r.open_ms / 1000, (x) => num(x, 1));
    pair('  time to answer all and read every result (s)', (r) => r.answer_ms / 1000, (x) => num(x, 1));
    pair('  errors', (r) => r.errors ?? 0, num, false);
  }
  if (exists('wait-sample-1000.json')) {
    const s = readJson('wait-sample-1000.json');
    lines.push(`  the sample server's own github_username (a blocking handler, pool of 4 workers), N = ${num(s.users)}:`);
    lines.push(`    ${num(s.waiting)} of ${num(s.users)} reach their form, the rest queue for a worker;` +
      ` ${num(s.completed)} complete once all are answered; new client p99 ${ms(s.new_client.p99_ms)} ms`);
  }
  for (const n of httpUsers) {
    if (!exists(`wait-minimal-${n}.json`)) continue;
    const m = readJson(`wait-minimal-${n}.json`);
    lines.push(`  where it goes: with only github_username_async in each session (--minimal), N = ${num(n)}:` +
      ` ${kib(perUser(m))} KiB per waiting user,`);
    lines.push(`    so the sample tool table each session builds costs` +
      ` ${kib(perUser(readJson(`wait-elicitgen-${n}.json`)) - perUser(m))} KiB of it; new client p99 ${ms(m.new_client.p99_ms)} ms`);
  }
  const big = readJson(`wait-elicitgen-${httpUsers.at(-1)}.json`);
  const nBig = httpUsers.at(-1);
  const allThere = big.waiting === nBig && big.completed === nBig;
  lines.push(`  target: ${num(nBig)} waiting users on ${cores} cores, all waiting and all completed: ` +
    `${num(big.waiting)} / ${num(big.completed)} -> ${verdict(allThere)}`);
  lines.push(`  target: at most 16 KiB RSS per waiting user: ${kib(perUser(big))} KiB -> ${verdict(perUser(big) <= 16)}`);
  lines.push(`  target: no thread per waiting user: ${threadsAdded(big)} threads added for ${num(nBig)} users -> ` +
    `${verdict(threadsAdded(big) <= 4)}`);
  lines.push(`  target: new-client p99 <= 50 ms while they wait: ${ms(big.new_client.p99_ms)} ms -> ` +
    `${verdict(big.new_client.p99_ms <= 50)}`);
}

const rtWindows = [1, 64, 1024].filter((k) => exists(`rt-elicitgen-${k}.json`));
if (rtWindows.length) {
  lines.push('');
  lines.push('6. Form elicitation round trips per second (tools/call, read elicitation/create, POST the answer, read');
  lines.push('   the result), K callers on up to 16 sessions, each with a call and an answer connection');
  row('transport / server, in flight', 'per second', 'p99 ms');
  const servers = [
    ['HTTP elicitgen github_username_async', 'elicitgen'],
    ['HTTP elicitgen sample github_username (blocking, 4 workers)', 'sample'],
    ['HTTP TS server-everything', 'ts'],
  ];
  for (const [label, key] of servers) {
    for (const k of rtWindows) {
      if (!exists(`rt-${key}-${k}.json`)) continue;
      const r = readJson(`rt-${key}-${k}.json`);
      row(`${label}, ${k}`, num(r.round_trips_per_second), ms(r.latency_ms.p99) +
        (r.errors ? ` ${r.errors} err` : ''));
    }
  }
  const inMemory = Object.fromEntries(rt.filter((x) => x.name.startsWith('BM_FormElicitationRoundTrip/'))
    .map((b) => [Number(b.name.split('/')[1]), b.items_per_second]));
  for (const k of [1, 64, 1024]) if (inMemory[k]) row(`in-memory transport (section 4), ${k}`, num(inMemory[k]), '');
  for (const k of rtWindows) {
    const eg = readJson(`rt-elicitgen-${k}.json`).round_trips_per_second;
    const ts = exists(`rt-ts-${k}.json`) ? readJson(`rt-ts-${k}.json`).round_trips_per_second : NaN;
    lines.push(`  HTTP at ${k} in flight: elicitgen/TS = ${num(eg / ts, 2)}`);
  }
  if (inMemory[1024]) lines.push(`  target: in-memory >= 200k/s at 1,024 in flight: ${num(inMemory[1024])}/s -> ${verdict(inMemory[1024] >= 200000)}`);
  if (inMemory[1]) lines.push(`  target: in-memory >= 50k/s at 1 in flight: ${num(inMemory[1])}/s -> ${verdict(inMemory[1] >= 50000)}`);
}

// 7. requestState sealing
if (exists('request_state.json')) {
  const r = gbench('request_state.json');
  const sealed = r.BM_RequestStateSeal.b;
  lines.push('');
  lines.push(`7. requestState (MCP 2026-07-28) of ${num(sealed.payload_bytes)} payload bytes, sealed to ` +
    `${num(sealed.sealed_bytes)} bytes (XChaCha20-Poly1305, BLAKE2b binding), median of 5 runs`);
  row('operation', 'ns', '');
  row('seal', num(r.BM_RequestStateSeal.ns), '');
  row('open', num(r.BM_RequestStateOpen.ns), '');
  row('open of a tampered state (rejected)', num(r.BM_RequestStateOpenTampered.ns), '');
}

// 8. modern round trips over stateless HTTP (MCP 2026-07-28), every server run several times: medians.
const modernWindows = [1, 64, 256].filter((k) => exists(`modern-elicitgen-${k}-1.json`) || exists(`modern-ts-${k}-1.json`));
if (modernWindows.length) {
  const runsOf = (key, k) => {
    const out = [];
    for (let r = 1; exists(`modern-${key}-${k}-${r}.json`); ++r) out.push(readJson(`modern-${key}-${k}-${r}.json`));
    return out;
  };
  const ts2Version = JSON.parse(readFileSync(join(dir, '..', '..', 'bench', 'ts-server-2', 'node_modules',
    '@modelcontextprotocol', 'server', 'package.json'), 'utf8')).version;
  const load = (f) => (exists(f) ? read(f).trim() : '?');
  const servers = [
    ['elicitgen', 'elicitgen sample server (sealed requestState)'],
    ['ts', `TS SDK ${ts2Version}: inputRequired(), no requestState`],
    ['ts-state', `TS SDK ${ts2Version}: + createRequestStateCodec (HMAC)`],
  ];
  const stat = {};
  let repeats = 0;
  let seconds = 0;
  let warmup = 0;
  const failed = [];
  for (const [key] of servers) {
    for (const k of modernWindows) {
      const runs = runsOf(key, k);
      if (!runs.length) continue;
      repeats = Math.max(repeats, runs.length);
      seconds = runs[0].seconds;
      warmup = runs[0].warmup_seconds;
      runs.forEach((r, i) => { if (!r.ok || r.failures) failed.push(`${key} K=${k} run ${i + 1}: ${r.failures} failed rounds` + (r.errors_first ? ` (${r.errors_first[0]})` : '')); });
      const rates = runs.map((r) => r.round_trips_per_second);
      stat[`${key}-${k}`] = {
        rate: median(rates), min: Math.min(...rates), max: Math.max(...rates),
        p99: median(runs.map((r) => r.latency_ms.p99)),
        cpu: median(runs.map((r) => r.server_cpu_us_per_round_trip)),
        user: median(runs.map((r) => r.server_user_us_per_round_trip ?? NaN)),
        system: median(runs.map((r) => r.server_system_us_per_round_trip ?? NaN)),
        client: median(runs.map((r) => (1000 * r.client_cpu_ms) / Math.max(1, r.completed))),
        state: Math.max(...runs.map((r) => r.request_state_bytes ?? 0)),
        ok: runs.every((r) => r.ok),
      };
    }
  }
  lines.push('');
  lines.push('8. Modern round trips over stateless HTTP (MCP 2026-07-28): tools/call -> input_required (one');
  lines.push('   elicitation/create) -> retry with inputResponses + requestState -> complete result: 2 HTTP requests');
  lines.push(`   each, no session; tool github_username. Loopback, ${cores} cores, load average ${load('modern-loadavg-before.txt')}`);
  lines.push(`   before, ${load('modern-loadavg-after.txt')} after. One client thread (elicit_http_load modern), K callers each`);
  lines.push(`   on one keep-alive connection; median of ${repeats} runs (servers interleaved) of ${num(seconds, 1)} s after` +
    ` ${num(warmup, 0)} s of warm-up,`);
  lines.push('   each round counted by its share of time in the window. TS: bench/ts-server-2 (createMcpHandler: a fresh');
  lines.push(`   McpServer per request, toNodeHandler; node ${process.versions.node}). srv CPU = the server process's user + system time.`);
  lines.push(`  ${pad('server, in flight', 58)} ${'rt/s'.padStart(8)} ${'min-max'.padStart(15)} ${'p99 ms'.padStart(8)} ${'srv CPU us/rt'.padStart(14)}`);
  for (const [key, label] of servers) {
    for (const k of modernWindows) {
      const x = stat[`${key}-${k}`];
      if (!x) continue;
      lines.push(`  ${pad(`${label}, ${k}`, 58)} ${num(x.rate).padStart(8)} ${`${num(x.min)}-${num(x.max)}`.padStart(15)}` +
        ` ${ms(x.p99).padStart(8)} ${num(x.cpu).padStart(14)}${x.ok ? '' : '  FAILURES'}`);
    }
  }
  const ratios = [];
  for (const k of modernWindows) {
    const eg = stat[`elicitgen-${k}`];
    const ts = stat[`ts-${k}`];
    const tss = stat[`ts-state-${k}`];
    if (!eg || !ts) continue;
    ratios.push(eg.rate / Math.max(ts.rate, tss ? tss.rate : 0));
    lines.push(`  ${k} in flight: ours/TS = ${num(eg.rate / ts.rate, 1)}x` +
      (tss ? `, ours/TS+state = ${num(eg.rate / tss.rate, 1)}x` : '') +
      `; server CPU per round trip TS/ours = ${num(ts.cpu / eg.cpu, 1)}x`);
  }
  const egOk = modernWindows.every((k) => !stat[`elicitgen-${k}`] || stat[`elicitgen-${k}`].ok);
  if (ratios.length) {
    const worst = Math.min(...ratios);
    lines.push(`  target: at least 10x the TypeScript server's rate (the faster of its two variants) at every K: lowest` +
      ` ${num(worst, 1)}x -> ${egOk ? verdict(worst >= 10) : 'MISSED (elicitgen runs had failures)'}`);
  } else {
    lines.push('  target: at least 10x the TypeScript server\'s rate -> not measured (no elicitgen runs)');
  }
  const k1 = stat['elicitgen-1'];
  if (k1) {
    lines.push(`  target: server CPU per round trip at 1 in flight at most 80 us: ${num(k1.cpu)} us -> ${verdict(k1.cpu <= 80)}` +
      ` (the client, elicit_http_load: ${num(k1.client)} us)`);
    // User time is the server's own code; system time the kernel's sends, receives and wake-ups,
    // which the Asio floor below has too (with no work at all).
    lines.push(`    of it user (the server's code) ${num(k1.user, 1)} us, system (the kernel) ${num(k1.system, 1)} us`);
  }
  const floors = [];
  for (let r = 1; exists(`modern-floor-${r}.json`); ++r) floors.push(readJson(`modern-floor-${r}.json`));
  if (floors.length) {
    // At 1 in flight nothing overlaps: a round trip costs both sides' work plus four wake-ups, and the
    // wake-ups alone are most of it on a virtual machine. This says how much rate there is to win.
    const rate = median(floors.map((f) => f.round_trips_per_second));
    const side = median(floors.map((f) => (f.client_cpu_us_per_round_trip + f.server_cpu_us_per_round_trip) / 2));
    const ts1 = Math.max(stat['ts-1']?.rate ?? 0, stat['ts-state-1']?.rate ?? 0);
    lines.push(`  floor at 1 in flight (bench/loopback_floor.cpp: bare TCP ping-pong, two ${floors[0].bytes}-byte exchanges per` +
      ` round trip, no work; median of ${floors.length}):`);
    lines.push(`    ${num(rate)} rt/s and ${num(side, 1)} us of CPU per side per round trip (kernel: sends, wake-ups)` +
      (k1 ? `; elicitgen at 1 in flight runs at ${num((100 * k1.rate) / rate)}% of it` : '') +
      (ts1 ? `; 10x the TS server there would be ${num((1000 * ts1) / rate)}% of it` : ''));
    const asio = [];
    for (let r = 1; exists(`modern-floor-asio-${r}.json`); ++r) asio.push(readJson(`modern-floor-asio-${r}.json`));
    if (asio.length) {
      // The same ping-pong with the server on an Asio reactor, as the runtime's: what a server built
      // this way spends per round trip at 1 in flight before it does any work.
      const server = median(asio.map((f) => f.server_cpu_us_per_round_trip));
      const user = median(asio.map((f) => f.server_user_us_per_round_trip ?? NaN));
      const system = median(asio.map((f) => f.server_system_us_per_round_trip ?? NaN));
      lines.push(`    with the server on an Asio reactor (one thread, asynchronous read and write): ` +
        `${num(median(asio.map((f) => f.round_trips_per_second)))} rt/s, ${num(server, 1)} us of server CPU per round trip` +
        ` (user ${num(user, 1)}, system ${num(system, 1)})` +
        (k1 ? `; elicitgen's work at 1 in flight is then about ${num(k1.cpu - server)} us` : ''));
    }
  }
  for (const f of failed) lines.push(`  FAILED: ${f}`);
  if (exists('request_state.json')) {
    // Google Benchmark's CPU time (not wall time), to compare with the server's CPU time per round trip.
    const r = gbench('request_state.json');
    const cpu = (b) => (b.b.cpu_time * b.ns) / b.b.real_time;
    const seal = cpu(r.BM_RequestStateSeal);
    const open = cpu(r.BM_RequestStateOpen);
    const eg = modernWindows.map((k) => stat[`elicitgen-${k}`]).filter(Boolean);
    const perRt = eg.length ? median(eg.map((x) => x.cpu)) : NaN;
    lines.push(`  requestState: a round trip seals one state and opens one; section 7's CPU time for its` +
      ` ${num(r.BM_RequestStateSeal.b.payload_bytes)}-byte payload`);
    lines.push(`    (${num(r.BM_RequestStateSeal.b.sealed_bytes)} sealed): seal ${num(seal / 1000, 1)} us + open ${num(open / 1000, 1)} us =` +
      ` ${num((seal + open) / 1000, 1)} us` +
      (eg.length ? `, at most ${num((100 * (seal + open)) / 1000 / perRt, 1)}% of the server CPU per round trip` +
        ` (${num(perRt)} us; states here are ${num(Math.max(...eg.map((x) => x.state)))} bytes)` : ''));
  }
}


// 9. tasks waiting in input_required (elicit_http_load tasks): a burst run and a paced run per N.
const taskNs = [...new Set(readdirSync(dir).map((f) => /^tasks-(burst|paced)-(\d+)\.json$/.exec(f)).filter(Boolean)
  .map((m) => Number(m[2])))].sort((a, b) => a - b);
if (taskNs.length) {
  const target = 4096;  // bytes of RSS per waiting task
  const perTask = (r) => (r?.waiting_resources && r.waiting
    ? (1024 * (r.waiting_resources.rss_kib - r.baseline.rss_kib)) / r.waiting : NaN);
  lines.push('');
  lines.push('9. Tasks (io.modelcontextprotocol/tasks, SEP-2663) waiting in input_required over stateless HTTP');
  lines.push(`   (MCP 2026-07-28), loopback, ${cores} cores; the sample server (elicitgen_http_server: tasks in its`);
  lines.push('   InMemoryTaskStore, 4 workers), tool confirm_delete; one client thread, 64 keep-alive connections');
  lines.push('   (elicit_http_load tasks). burst: tasks made as fast as the server answers (their runs queue for');
  lines.push('   its workers); paced: a connection makes its next task once its last one asks (at most 64 working).');
  lines.push('   RSS and threads of the server process while all wait, minus after startup + 3 warm-up tasks;');
  lines.push('   tasks/get sequential on one connection, spread over the tasks.');
  lines.push(`  ${pad('measure', 58)} ${'burst'.padStart(12)} ${'paced'.padStart(10)}`);
  for (const n of taskNs) {
    const runs = ['burst', 'paced'].map((p) => (exists(`tasks-${p}-${n}.json`) ? readJson(`tasks-${p}-${n}.json`) : null));
    const pair = (label, f, fmt) => lines.push(`  ${pad(label, 58)} ${runs.map((r, i) => {
      let v = '-';
      try { if (r) v = fmt(f(r)); } catch { v = '-'; }
      return v.padStart(i ? 10 : 12);
    }).join(' ')}`);
    const f1 = (x) => num(x, 1);
    lines.push(`  N = ${num(n)}`);
    pair('  tasks created', (r) => r.created ?? 0, num);
    pair('  tasks waiting in input_required', (r) => r.waiting ?? 0, num);
    pair('  server RSS before (after startup + 3 warm-up tasks) (MiB)', (r) => r.baseline.rss_kib / 1024, f1);
    pair('  server RSS while all wait (MiB)', (r) => r.waiting_resources.rss_kib / 1024, f1);
    pair('  RSS per waiting task (bytes)', perTask, num);
    pair('    x the 4 KiB target', (r) => perTask(r) / target, (x) => num(x, 2));
    pair('  server threads while waiting (whole process)', (r) => r.waiting_resources.threads, String);
    pair('    of which added while they wait', (r) => r.waiting_resources.threads - r.baseline.threads, String);
    pair('  tasks/get p50 (ms)', (r) => r.get.p50_ms, (x) => num(x, 3));
    pair('  tasks/get p99 (ms)', (r) => r.get.p99_ms, (x) => num(x, 3));
    pair('    gets sampled', (r) => r.get.samples, num);
    pair('  tasks completed with the expected result', (r) => r.completed ?? 0, num);
    pair('  time to create all and see each input_required (s)', (r) => r.waiting_ms / 1000, f1);
    pair('    of which making them (tools/call -> task) (s)', (r) => r.create_ms / 1000, f1);
    pair('  time to answer all and see each completed (s)', (r) => r.complete_ms / 1000, f1);
    pair('  server RSS once all completed (MiB)', (r) => r.completed_resources.rss_kib / 1024, f1);
    pair('  errors', (r) => r.errors ?? 0, num);
    runs.forEach((r, i) => {
      if (!r) return;
      const p = i ? 'paced' : 'burst';
      lines.push(`  target (${p}): at most 4 KiB RSS per waiting task: ${num(perTask(r))} bytes -> ${verdict(perTask(r) <= target)}`);
      if (!r.ok) {
        lines.push(`  FAILED (${p}): ${num(r.completed ?? 0)} of ${num(n)} tasks completed, ${num(r.errors ?? 0)} errors` +
          (r.deadline_passed ? ', the run passed its deadline' : '') +
          (r.errors_first ? ` (first: ${r.errors_first[0]})` : ''));
        process.exitCode = 1;
      }
    });
  }
  if (exists('task-store-memory.json')) {
    const m = readJson('task-store-memory.json');
    const h = m.heap_of_members;
    lines.push(`  where it goes (bench/task_store_memory.cpp: ${num(m.tasks)} such records in an InMemoryTaskStore, no HTTP;`);
    lines.push(`    heap by mallinfo2): ${num(m.heap_per_task.input_required)} bytes per waiting task` +
      ` (${num(m.heap_per_task.working)} while working);`);
    lines.push(`    one record's members, parsed: request ${num(h.request)}, inputRequests ${num(h.input_requests)},` +
      ` requestState (${num(m.request_state_bytes)} chars) ${num(h.request_state)},`);
    lines.push(`    keyMap + usedKeys + answers ${num(h.key_map + h.used_keys + h.answers_empty)};` +
      ` the record as JSON text (dump()) ${num(h.record_as_json_text)}; TaskRecord::bytes() = ${num(m.record_bytes)}`);
    lines.push(`    ns per call: TaskRecord::bytes() ${num(m.ns.record_bytes)}, record copy ${num(m.ns.record_copy)},` +
      ` store get ${num(m.ns.store_get)}, store update ${num(m.ns.store_update)}`);
  }
  if (exists('task-queue-memory.json')) {
    const q = readJson('task-queue-memory.json');
    lines.push(`  runs waiting for a worker (bench/task_queue_memory.cpp: ${num(q.tasks)} tasks made while all ${q.workers}` +
      ` workers are held; heap by mallinfo2, one arena):`);
    lines.push(`    ${num(q.heap_per_task_run_waiting)} bytes per task (the record alone: ${num(q.heap_per_task_record_alone)});` +
      ` runs begun ${num(q.runs_begun_while_held)} (batch ${q.batch}), waiting to begin ${num(q.runs_waiting_while_held)};` +
      ` then all completed in ${num(q.complete_ms / 1000, 1)} s`);
    if (!q.ok) {
      lines.push(`  FAILED (runs waiting for a worker): ${num(q.completed ?? 0)} of ${num(q.tasks)} tasks completed`);
      process.exitCode = 1;
    }
  }
}

console.log(lines.join('\n'));
