/**
 * Fingerprints of secrets: what a run's files hold in place of a secret (the mark of a
 * secret input, the tag of a secret inside an idempotency key), enough to tell a changed
 * value on resume. An unsalted fast hash of a 6-digit PIN is reversed by hashing all 10^6
 * PINs (under a second), so a run's fingerprints are scrypt over its own random salt: two
 * runs of one secret differ, no table serves two runs, and each guess costs tens of
 * milliseconds even to a reader of the run directory, which holds the salt (config.json).
 * Runs created before the salt keep the old fingerprint, or their records would not match.
 */
import { createHash, randomBytes, scryptSync } from "node:crypto";

/** A run's salt (hex), or null for a run created before planspec salted fingerprints. */
export type SecretSalt = string | null;

/** scrypt's cost: 16 MiB and about 50 ms per fingerprint on the bench machine (bench/README.md). */
const SCRYPT = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
/** Bytes of the fingerprint shown: 64 bits tell values apart, and say less than a whole digest. */
const SHOWN = 8;

/** A new run's salt. */
export function newSecretSalt(): string {
  return randomBytes(16).toString("hex");
}

// A session fingerprints each secret on every state write: pay scrypt once per process.
const cache = new Map<string, string>();
const CACHE_MAX = 1024;

/** The fingerprint of `value` under `salt`: `scrypt:<hex>`, or `sha256:<hex>` for a run without a salt. */
export function fingerprint(value: string, salt: SecretSalt): string {
  if (salt === null) return `sha256:${createHash("sha256").update(`planspec-secret\0${value}`).digest("hex").slice(0, 2 * SHOWN)}`;
  const id = `${salt}\0${value}`;
  let fp = cache.get(id);
  if (fp === undefined) {
    fp = `scrypt:${scryptSync(value, Buffer.from(salt, "hex"), SHOWN, SCRYPT).toString("hex")}`;
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(id, fp);
  }
  return fp;
}

