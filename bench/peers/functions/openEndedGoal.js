/**
 * unbounded-loop (goal part): a step whose goal promises to go on "until it works" and
 * that neither repeats nor iterates a bounded list. Same phrase list as planspec's rule.
 */
const OPEN_ENDED =
  /\b(until (?:it |they |the \w+ )?(?:is |are )?(?:found|works?|passe?s|succeeds?|successful|fixed|green|resolved|done)|keep (?:on )?(?:trying|retrying|going|looping|polling|searching|checking|iterating)|try again until|as (?:many times|long) as (?:needed|necessary|it takes)|indefinitely|forever|over and over|no matter how long)\b/i;

export default (step) => {
  if (!step || typeof step.goal !== "string") return [];
  if (step.repeat !== undefined || step.for_each?.max_items !== undefined) return [];
  const m = OPEN_ENDED.exec(step.goal);
  return m ? [{ message: `goal means to go on "${m[1]}" but nothing bounds it`, path: ["goal"] }] : [];
};
