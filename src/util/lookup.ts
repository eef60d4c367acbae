/**
 * A lookup table with no prototype: `table.constructor`, `"toString" in table` find
 * nothing. Words from a plan (a command, a tool id) are looked up in tables like these,
 * and an Object method's name must not read as an entry.
 */
export function lookup<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
