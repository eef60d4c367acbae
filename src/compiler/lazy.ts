/**
 * Heavy libraries loaded on first use. A clean plan never needs ajv's compiler (only
 * output_schema checks and `validate` do) nor `yaml`'s Document API (the fast YAML path
 * handles it), and importing them costs ~50 ms each at start-up.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export function loadAjv(): typeof import("ajv") {
  return require("ajv") as typeof import("ajv");
}

export function loadYaml(): typeof import("yaml") {
  return require("yaml") as typeof import("yaml");
}
