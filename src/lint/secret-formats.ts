/**
 * Well-known credential formats (API keys, tokens, private keys, passwords in URLs): what
 * secret-in-arguments reports, and what the text format masks in its code frames so a
 * credential written into a plan does not also land in a CI log or a planner's prompt.
 */
// Well-known token formats, checked against every literal string.
export const FORMATS: ReadonlyArray<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "private key"],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, "AWS access key"],
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/, "API key"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, "Google API key"],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/, "GitHub token"],
  [/\bglpat-[A-Za-z0-9_-]{20,}/, "GitLab token"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/, "Slack token"],
  [/\bnpm_[A-Za-z0-9]{36}\b/, "npm token"],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, "JSON web token"],
  [/\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{16,}/i, "credential"],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:[^\s@/]+@/i, "password in a URL"],
];

// One cheap test that every format above needs to pass, so ordinary strings cost one scan.
export const SUSPECT = /sk-|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA|AIza|npm_|eyJ|bearer|basic|PRIVATE KEY|:\/\/[^\s@/]+:[^\s@/]+@/i;

// The same formats, global, for masking.
const ANY_FORMAT = new RegExp(FORMATS.map(([re]) => `(?:${re.source})`).join("|"), "gi");

/** Characters of a masked secret left readable: enough to recognise the kind of token. */
const KEEP = 4;

/** `xoxb-1234-abcd` → `xoxb**********`: same length, so columns and underlines stay put. */
export function maskText(s: string): string {
  let kept = 0;
  return s.replace(/[^\s"'`]/g, (ch) => (kept++ < KEEP ? ch : "*"));
}

/** A line of source with every well-known credential format in it masked. */
export function maskSecrets(line: string): string {
  if (line.length < 8 || !SUSPECT.test(line)) return line;
  return line.replace(ANY_FORMAT, maskText);
}
