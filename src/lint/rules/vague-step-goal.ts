/**
 * A step goal is the instruction an agent executes and the line a reviewer reads; "do the
 * task" or "process data" tells neither what to do to what. A short imperative with a
 * concrete verb and object ("Deploy the release", "Stabilize the video") says both.
 */
import { defineRule } from "../rule.js";
import { contentWords, stem } from "../text.js";

// Verbs and nouns that fit every step and so say nothing about this one.
const GENERIC = new Set(
  (
    "do perform handle process processing complete finish execute run work job thing item action request goal " +
    "data info information todo tbd misc something whatever necessary needed required appropriate relevant " +
    "accordingly stuff general generic various"
  )
    .split(" ")
    .map(stem),
);

export const rule = defineRule({
  id: "vague-step-goal",
  meta: {
    description: "A step goal with fewer than three content words (unless a specific verb and its object), or only generic ones.",
    defaultSeverity: "warning",
    defaultConfidence: "low",
    defaultOptions: { minWords: 3 },
    messages: {
      tooShort: 'goal of step "{{step}}" says too little ("{{goal}}"); say in one sentence what it does to what',
      generic: 'goal of step "{{step}}" is generic ("{{goal}}"); name the artefact it works on and the result it produces',
    },
  },
  check(ctx) {
    const min = Number(ctx.options.minWords ?? 3);
    for (const node of ctx.ir.nodes) {
      const w = contentWords(node.goal);
      const goal = node.goal.length > 50 ? `${node.goal.slice(0, 47)}...` : node.goal;
      const data = { step: node.id, goal };
      if (w.length < min) {
        if (!isImperative(node.goal, w)) ctx.report({ messageId: "tooShort", node: node.id, path: ["goal"], data });
      } else if (w.every((x) => GENERIC.has(x))) ctx.report({ messageId: "generic", node: node.id, path: ["goal"], data });
    }
  },
});

/**
 * "Deploy the release", "Run the tests": the goal opens with its first content word (a
 * verb, not "The ..."), and some content word is specific, so a verb and an object say
 * what to do to what ("Process the data" says neither).
 */
function isImperative(goal: string, words: readonly string[]): boolean {
  if (words.length < 2 || words.every((x) => GENERIC.has(x))) return false;
  const first = /^\s*([A-Za-z]+)/.exec(goal)?.[1]?.toLowerCase();
  return first !== undefined && stem(first) === words[0];
}
