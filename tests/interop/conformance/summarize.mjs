// Reads the checks.json files a `conformance server --requirements 2026-07-28 -o DIR` run left in DIR
// (one folder per scenario, "server-<scenario>-<timestamp>") and prints one line per scenario.
// A scored scenario (named on the command line) passes only with no FAILURE and no WARNING check;
// a scored scenario without a checks.json fails too. Not-scored scenarios are reported, never counted.
// Usage: node summarize.mjs DIR scored-scenario...   Exit code: 1 if any scored scenario failed.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...scored] = process.argv.slice(2);
const byScenario = new Map();
for (const entry of readdirSync(dir)) {
  const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
  const file = join(dir, entry, 'checks.json');
  if (m && existsSync(file)) byScenario.set(m[1], JSON.parse(readFileSync(file, 'utf8')));
}

const count = (checks, status) => checks.filter((c) => c.status === status).length;
const line = (name, checks) => {
  const passed = count(checks, 'SUCCESS');
  const failed = count(checks, 'FAILURE');
  const warnings = count(checks, 'WARNING');
  return { text: `${name}: Passed: ${passed}/${passed + failed}, ${failed} failed, ${warnings} warnings`, ok: failed === 0 && warnings === 0 };
};

let ok = 0;
let bad = 0;
for (const name of scored) {
  const checks = byScenario.get(name);
  if (!checks) {
    console.log(`${name}: no checks.json (the scenario did not run to its end)`);
    bad++;
    continue;
  }
  const l = line(name, checks);
  console.log(l.text);
  if (l.ok) ok++;
  else {
    bad++;
    for (const c of checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')) {
      console.log(`    ${c.status} ${c.id}: ${(c.errorMessage ?? c.description).split('\n')[0].slice(0, 400)}`);
    }
  }
}
const unscored = [...byScenario.keys()].filter((n) => !scored.includes(n)).sort();
if (unscored.length > 0) {
  console.log(`not scored for 2026-07-28 (reported only): ${unscored.length}`);
  for (const name of unscored) console.log(`  ${line(name, byScenario.get(name)).text}`);
}
console.log(`${ok} passed, ${bad} failed`);
process.exit(bad > 0 ? 1 : 0);
