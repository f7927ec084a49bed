// prometheus.sh's poller: asks Prometheus's HTTP API (/api/v1/query, instant queries) every 0.5 s,
// for at most `seconds`, until every `expression=value` holds (the query's one sample equals value),
// then prints each expression and the sample Prometheus gave. On timeout, prints the last answer of
// every query (the JSON Prometheus sent) and exits 1.
// Usage: node promql.mjs <prometheus base URL> <seconds> '<expression>=<value>'...
const [base, secondsArg, ...checks] = process.argv.slice(2);
const seconds = Number(secondsArg);
if (!base || !(seconds > 0) || checks.length === 0) {
  console.error("usage: node promql.mjs <prometheus base URL> <seconds> '<expression>=<value>'...");
  process.exit(2);
}
const wanted = checks.map((c) => {
  const i = c.lastIndexOf('=');
  return { expr: c.slice(0, i), value: Number(c.slice(i + 1)) };
});

async function query(expr) {
  const url = `${base}/api/v1/query?query=${encodeURIComponent(expr)}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { text: await res.text(), status: res.status };
  } catch (e) {
    return { text: `(no answer: ${e.cause?.code ?? e.message})`, status: 0 };
  }
}
// The one sample of an instant vector answer, as a number; undefined when there is not exactly one.
function sample(answer) {
  try {
    const j = JSON.parse(answer.text);
    if (j.status !== 'success' || j.data.resultType !== 'vector' || j.data.result.length !== 1) return undefined;
    return Number(j.data.result[0].value[1]);
  } catch {
    return undefined;
  }
}

const deadline = Date.now() + seconds * 1000;
const started = Date.now();
let last = [];
for (let round = 0; round < seconds * 2 + 1; round++) {
  last = await Promise.all(wanted.map((w) => query(w.expr)));
  if (wanted.every((w, i) => sample(last[i]) === w.value)) {
    for (const [i, w] of wanted.entries()) {
      const j = JSON.parse(last[i].text);
      console.log(`  ${w.expr} = ${sample(last[i])}   ${JSON.stringify(j.data.result)}`);
    }
    console.log(`  (held after ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    process.exit(0);
  }
  if (Date.now() >= deadline) break;
  await new Promise((r) => setTimeout(r, 500));
}
console.error(`Prometheus did not show the expected values within ${seconds} s; its last answers:`);
for (const [i, w] of wanted.entries()) {
  console.error(`  want ${w.expr} = ${w.value}, got ${sample(last[i]) ?? '(no single sample)'}: HTTP ${last[i]?.status} ${last[i]?.text}`);
}
process.exit(1);
