/**
 * Heavy libraries loaded on first use. A clean plan never needs ajv's compiler (only
 * output_schema checks and `validate` do) nor `yaml`'s Document API (the fast YAML path
 * handles it), and importing them costs ~50 ms each at start-up. js-yaml (the fast YAML
 * path) is needed only when a YAML file is read: a lint of JSON plans never loads it.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export function loadAjv(): typeof import("ajv") {
  return require("ajv") as typeof import("ajv");
}

export function loadYaml(): typeof import("yaml") {
  return require("yaml") as typeof import("yaml");
}

export function loadJsYaml(): typeof import("js-yaml") {
  return require("js-yaml") as typeof import("js-yaml");
}
