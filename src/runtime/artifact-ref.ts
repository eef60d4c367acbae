/**
 * Artifact references. A step's output is stored by content: `artifacts/<sha256>.json`.
 * An output whose JSON is at most `IN_STATE_MAX` bytes is not worth a file of its own —
 * the reference (84 characters) is as long as the output — so it is kept in the state
 * itself, as `inline:<json>`: no file to create per step, none to check on resume, and it
 * is as durable as the state record that names it (checksummed with it). Escaped inside
 * state.json it takes at most ~140 characters, so the state stays small however large the
 * outputs are.
 */
import { sha256Hex } from "./atomic.js";
import { IntegrityError, type ArtifactRef } from "./store.js";
import { cutClean } from "./redact.js";

/** Outputs up to this many bytes of JSON live in the state. */
export const IN_STATE_MAX = 64;

const INLINE = "inline:";
const FILE_REF = /^artifacts\/([0-9a-f]{64})\.json$/;

/** The reference of an output kept in the state, or undefined when it needs an artifact. */
export function inStateRef(text: string, hash: string): ArtifactRef | undefined {
  const size = Buffer.byteLength(text);
  return size <= IN_STATE_MAX ? { ref: `${INLINE}${text}`, hash, size } : undefined;
}

/** The JSON of an output kept in the state, or undefined for a reference to an artifact. */
export function inStateText(ref: string): string | undefined {
  return ref.startsWith(INLINE) ? ref.slice(INLINE.length) : undefined;
}

/** The value of an output kept in the state; a reference that is not JSON was forged, not written by planspec. */
export function inStateValue(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const shown = text.length > 40 ? `${cutClean(text, 40)}…` : text;
    throw new IntegrityError(`output inline:${shown} in the state of ${where} is not JSON: the state was edited outside planspec; restore it, or start a new run`);
  }
}

/** The content hash an artifact reference names (`artifacts/<hash>.json`), or undefined. */
export function fileRefHash(ref: string): string | undefined {
  return FILE_REF.exec(ref)?.[1];
}

/** The content hash of whatever a reference points at. */
export function refHash(ref: string): string | undefined {
  const text = inStateText(ref);
  return text !== undefined ? sha256Hex(text) : fileRefHash(ref);
}
