// ajv + ajv-formats on the message decode_bench.cpp reads: JSON.parse of the raw text, the action
// check, then a compiled validator for requestedSchema on result.content. Prints one JSON line:
// {"ns_per_message": median over rounds, "rounds": [...]}.
// Usage: node ajv_decode.mjs <form schema file> <message file>
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const [schemaFile, messageFile] = process.argv.slice(2);
const requestedSchema = JSON.parse(readFileSync(schemaFile, 'utf8')).requestedSchema;
const text = readFileSync(messageFile, 'utf8');

const ajv = new Ajv({ allErrors: true });
addFormats(ajv);
const validate = ajv.compile(requestedSchema);

function decode(raw) {
  const msg = JSON.parse(raw);
  if (msg.jsonrpc !== '2.0' || msg.result?.action !== 'accept') return undefined;
  return validate(msg.result.content) ? msg.result.content : undefined;
}

if (decode(text) === undefined) throw new Error(`not valid: ${JSON.stringify(validate.errors)}`);
let sink = 0;
const run = (n) => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += decode(text) === undefined ? 0 : 1;
  return Number(process.hrtime.bigint() - start) / n;
};
run(300000);  // warm up: let V8 optimise decode and the validator
const rounds = [];
for (let r = 0; r < 9; r++) rounds.push(run(200000));
rounds.sort((a, b) => a - b);
if (sink === 0) throw new Error('nothing decoded');
console.log(JSON.stringify({ ns_per_message: rounds[4], rounds: rounds.map((x) => Math.round(x)) }));
