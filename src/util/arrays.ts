/**
 * Appends every item to `target`, in order. `target.push(...items)` passes each item as an
 * argument, and V8 throws "Maximum call stack size exceeded" past ~120,000 of them: a
 * 65,000-step plan's findings, a server's tool list or an input's elements can be that many.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
