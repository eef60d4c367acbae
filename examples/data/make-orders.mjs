#!/usr/bin/env node
/**
 * Writes examples/data/orders.csv: 200 synthetic orders for the csv-anomalies demo, with
 * the three anomalies the plan looks for (negative amounts, shipped-before-ordered time
 * inversions, duplicate order ids) and a few rows with an empty field for validation.
 * A seeded PRNG keeps the file byte-identical across runs, so the demo output is stable.
 *
 *   node examples/data/make-orders.mjs [out.csv]
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROWS = 200;
const out = process.argv[2] ?? fileURLToPath(new URL("./orders.csv", import.meta.url));

// mulberry32: tiny, seedable, good enough for sample data (Math.random cannot be seeded).
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = prng(20240611);
const pick = (list) => list[Math.floor(rand() * list.length)];
const customers = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne"];
const skus = [
  ["SKU-1001", 19.99],
  ["SKU-1002", 4.5],
  ["SKU-2001", 129.0],
  ["SKU-2002", 249.5],
  ["SKU-3001", 9.95],
  ["SKU-3002", 74.25],
];
const regions = ["eu-west", "us-east", "us-west", "ap-south"];
const start = Date.UTC(2024, 4, 1, 8, 0, 0);

// Fixed row numbers (1-based) for each anomaly, so the expected report is easy to state.
const negative = new Set([17, 58, 93, 141, 177]);
const inverted = new Set([24, 66, 118, 152, 190]);
const duplicateOf = new Map([
  [45, 44],
  [101, 12],
  [160, 159],
  [199, 87],
]);
const emptyCustomer = new Set([71, 133]);

const iso = (ms) => new Date(ms).toISOString().replace(".000Z", "Z");
const header = ["order_id", "customer", "region", "sku", "quantity", "amount", "currency", "ordered_at", "shipped_at"];
const rows = [];
const ids = [];
for (let n = 1; n <= ROWS; n++) {
  const [sku, price] = pick(skus);
  const quantity = 1 + Math.floor(rand() * 5);
  let amount = Math.round(price * quantity * 100) / 100;
  const ordered = start + n * 3_600_000 + Math.floor(rand() * 1800) * 1000;
  let shipped = ordered + (12 + Math.floor(rand() * 60)) * 3_600_000;
  if (negative.has(n)) amount = -amount;
  if (inverted.has(n)) shipped = ordered - (2 + Math.floor(rand() * 20)) * 3_600_000;
  const id = duplicateOf.has(n) ? ids[duplicateOf.get(n) - 1] : `ORD-${String(10000 + n * 7).padStart(6, "0")}`;
  ids.push(id);
  const customer = emptyCustomer.has(n) ? "" : pick(customers);
  rows.push([id, customer, pick(regions), sku, quantity, amount.toFixed(2), "EUR", iso(ordered), iso(shipped)]);
}

const text = [header, ...rows].map((r) => r.join(",")).join("\n") + "\n";
writeFileSync(out, text);
process.stdout.write(`wrote ${ROWS} rows to ${out}\n`);
