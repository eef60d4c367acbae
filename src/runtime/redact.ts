/**
 * Secret redaction for everything written to events: values of arguments whose names
 * look secret, and any occurrence of the value of a secret-looking environment variable.
 */

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;
export const REDACTED = "[redacted]";

/** Collects the values of secret-looking environment variables (long enough to be worth hiding). */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v && v.length >= 4 && SECRET_NAME.test(k)) out.push(v);
  }
  // Longest first so a secret containing another is replaced whole.
  return out.sort((a, b) => b.length - a.length);
}

/** Whether a field name should have its value hidden. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A deep copy of `value` with secret fields and secret substrings replaced. */
export function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") {
    let s = value;
    for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join(REDACTED);
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? REDACTED : redact(v, secrets);
    return out;
  }
  return value;
}
