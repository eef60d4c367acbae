/** Validates step outputs against their `output_schema` (ajv, loaded only when a plan has one). */
import type { IRNode } from "../ir.js";

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };

let ajvInstance: { compile(schema: unknown): Validate } | undefined;
const compiled = new WeakMap<IRNode, Validate>();

/** Returns a one-line error when the output does not match the node's schema. */
export async function outputSchemaError(node: IRNode, output: unknown): Promise<string | undefined> {
  if (node.outputSchema === undefined || node.forEach) return undefined;
  let validate = compiled.get(node);
  if (!validate) {
    if (!ajvInstance) {
      const { Ajv } = await import("ajv");
      ajvInstance = new Ajv({ allErrors: false, strict: false }) as unknown as { compile(schema: unknown): Validate };
    }
    validate = ajvInstance.compile(node.outputSchema);
    compiled.set(node, validate);
  }
  if (validate(output)) return undefined;
  const e = validate.errors?.[0];
  return `output does not match output_schema: ${e ? `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}` : "invalid"}`;
}
