/** The compiler's public surface. */
export { compileFile, compileSource, validateIRFile, type CompileOptions, type CompileResult } from "./compile.js";
export type { DocPath, SourceDoc } from "./source.js";
export { catalogue, type Code } from "./diagnostics.js";
export { canonicalJson, planHash } from "./canonical.js";
export { dslSchema, documentKind, describePath } from "./schema.js";
export { parseDuration, formatDuration } from "./durations.js";
