// Writes N requestedSchema files (bare schemas, which both elicitgen and quicktype read) of 5-15
// properties each, covering every property kind and constraint, from a fixed seed so every run
// measures the same input. Usage: node make_schemas.mjs <out dir> [count, default 200]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 200);
let seed = 20251125;
const random = () => {  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const words = ['name', 'email', 'city', 'street', 'age', 'count', 'size', 'color', 'team', 'role', 'note',
  'start', 'end', 'website', 'budget', 'priority', 'tags', 'notify', 'plan', 'seats'];

function property(k) {
  switch (k % 7) {
    case 0: return { type: 'string', title: 'Text', minLength: 1, maxLength: 80 };
    case 1: return { type: 'string', format: pick(['email', 'uri', 'date', 'date-time']), description: 'Formatted' };
    case 2: return { type: 'string', pattern: '^[A-Z][a-z]+$', maxLength: 40 };
    case 3: return { type: 'integer', minimum: 0, maximum: 1000 + k };
    case 4: return { type: 'number', minimum: -10.5, description: 'Amount' };
    case 5: return pick([
      { type: 'boolean', default: false },
      { type: 'string', enum: ['low', 'medium', 'high'] },
      { type: 'string', oneOf: [{ const: 'a', title: 'Option A' }, { const: 'b', title: 'Option B' }] },
    ]);
    default: return { type: 'array', items: { type: 'string', enum: ['red', 'green', 'blue'] }, minItems: 1, maxItems: 3 };
  }
}

mkdirSync(outDir, { recursive: true });
for (let i = 0; i < count; i++) {
  const n = 5 + (i % 11);
  const properties = {};
  const required = [];
  for (let k = 0; k < n; k++) {
    const name = `${pick(words)}_${k}`;
    properties[name] = property(k + i);
    if (random() < 0.4) required.push(name);
  }
  const schema = { type: 'object', title: `Form ${i}`, properties, required };
  writeFileSync(join(outDir, `form_${String(i).padStart(3, '0')}.json`), JSON.stringify(schema, null, 2) + '\n');
}
