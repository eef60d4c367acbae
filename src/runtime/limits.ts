/** Resource limits of a step: the size of its output, measured before anything stores it. */

/** The default per-step output limit: 16 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** Parses a size such as `16MB`, `512k` or `1048576` (units are powers of 1024); undefined when malformed. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) return undefined;
  const n = Math.round(Number(m[1]) * unit);
  return n >= 1 ? n : undefined;
}

/** A size for people: `16 MiB`, `1.5 KiB`, `900 B`. */
export function formatSize(n: number): string {
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/**
 * The size of `value` as JSON, in UTF-8 bytes (escapes aside), counted without
 * serialising it and stopping as soon as it passes `limit`: a 1 GB output is refused
 * after reading 16 MB of it, not after building a 1 GB string.
 */
export function jsonSize(value: unknown, limit = Infinity): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop();
    if (typeof v === "string") size += Buffer.byteLength(v, "utf8") + 2;
    else if (typeof v === "number" || typeof v === "boolean") size += String(v).length;
    else if (v === null || v === undefined || typeof v !== "object") size += 4;
    else if (Array.isArray(v)) {
      size += 2 + Math.max(0, v.length - 1);
      for (const item of v) stack.push(item);
    } else {
      const keys = Object.keys(v);
      size += 2 + Math.max(0, keys.length - 1);
      for (const k of keys) {
        size += Buffer.byteLength(k, "utf8") + 3;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return size;
}
