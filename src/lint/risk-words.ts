/**
 * What a tool's name and description say it does: `payments.refund`, `book_flight` and
 * "Sends an email" name an action; `refunds.list`, `payment_status` and "Drafts an email
 * but does not send it" do not. Only the verb position counts (the first word of a
 * snake_case id or of the description, the last segment of a dotted id, a verb opening a
 * later clause of the description), so nouns such as "address book" or "style transfer"
 * stay nouns. A heuristic: medium confidence.
 */
import type { Risk } from "../ir.js";
import { lookup } from "../util/lookup.js";

export type ActionClass = "payment" | "message" | "publish" | "deploy" | "delete" | "booking";

export interface ToolAction {
  cls: ActionClass;
  risk: Risk;
  word: string;
  /** Where the word was found. */
  where: "id" | "description";
}

const CLASS_RISK: Record<ActionClass, Risk> = { payment: "external", message: "external", publish: "external", deploy: "external", delete: "write", booking: "external" };

// Base forms (and a few nouns that name the action) by class.
const VERBS: Readonly<Record<string, ActionClass>> = lookup({
  refund: "payment", pay: "payment", payment: "payment", payout: "payment", charge: "payment", transfer: "payment", purchase: "payment", buy: "payment", wire: "payment", sell: "payment", credit: "payment", debit: "payment",
  send: "message", notify: "message",
  publish: "publish", tweet: "publish", post: "publish", share: "publish", announce: "publish",
  deploy: "deploy", rollout: "deploy", promote: "deploy",
  delete: "delete", remove: "delete", destroy: "delete", purge: "delete", wipe: "delete", erase: "delete", drop: "delete",
  book: "booking", reserve: "booking", order: "booking",
});
// Words that only name an action when it is plainly about money.
const NEEDS_MONEY = new Set(["charge", "transfer", "wire", "credit", "debit"]);
// Words that are nouns (or harmless verbs: "removes the background") as often as actions: never
// read from a description, and `remove`/`drop` only as the last segment of a dotted id (`fs.remove`).
const ID_ONLY = new Set(["post", "order", "drop", "remove", "share"]);
const DOTTED_ONLY = new Set(["remove", "drop"]);
// Words that name a thing as often as an action (`payment run`, `order lines`): a description
// that opens with a look-up makes them nouns. `refund`, `send`, `book`... stay verbs.
const NOUNISH = new Set(["post", "order", "drop", "remove", "share", "payment", "payout", "purchase", "transfer", "credit", "debit", "charge"]);
const PREPOSITIONS = new Set(["from", "to", "by", "for", "of", "per", "with", "in", "on", "into", "at"]);
// A description's first verb that only looks something up.
const LOOK_UP = /^(?:lists?|returns?|gets?|fetch(?:es)?|reads?|shows?|search(?:es)?|finds?|looks? up|quer(?:y|ies)|counts?|describes?|displays?|retrieves?|views?)\b/i;
// Generic verbs that make the other segments of an id the action's object: `stripe.refunds.create`.
const ACT_WORDS = new Set(["create", "make", "issue", "process", "execute", "submit", "initiate", "new", "add", "do", "perform", "run", "start"]);
const MONEY = /\b(?:money|funds?|payments?|pay|card|bank|accounts?|amount|currency|invoices?|customers?|refunds?|wallet|balance|usd|eur|gbp|\$)\b|\$\d/i;

// Segments that make a tool a look-up whatever else its name says (`refunds.list`).
const READ_WORDS = new Set(
  ("get list search find read fetch lookup look query status check view show describe estimate preview draft drafts calc calculate " +
    "calculator validate validator verify history info details summary count simulate simulator quote quotes dry dryrun sandbox " +
    "test mock fake analyze analyse analyzer inspect audit report reports lint diff plan planner suggest recommend parse parser " +
    "format formatter translate translator detect detector classify classifier extract extractor render template templates log logs " +
    // Tools named after what they look up: `kb.refund_policy`, `payments.docs`.
    "policy policies doc docs documentation faq guide handbook terms catalog catalogue schema spec")
    .split(" "),
);

// Lead-ins before a description's verb: "Tool to send ...", "Allows the agent to refund ...".
const LEAD_IN = /^(?:this tool |the tool |a tool |tool (?:that |to |which )|used to |use (?:this |it )?to |allows? (?:you |users |the (?:agent|user|model) )?to |lets? (?:you |users )?|can |will |helps? (?:you )?)/i;

/**
 * Letters of other scripts that look like Latin ones (Cyrillic `е`, Greek `ο`...), read as
 * those: `billing.rеfund` with a Cyrillic `е` looks like a refund to whoever reviews the
 * plan, so it is one to the linter too. Fullwidth forms fold by NFKC.
 */
const LOOK_ALIKE: Readonly<Record<string, string>> = lookup(Object.fromEntries(
  [..."аеорсухіјѕԁһӏԛԝкАВЕКМНОРСТХУІЈЅαορνικυεΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"].map((ch, i) => [ch, "aeopcyxijsdhlqwkABEKMHOPCTXYIJSaopvikueABEZHIKMNOPTYX"[i]!]),
));
const NON_ASCII = /[^\x00-\x7f]/;

function latin(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  let out = "";
  for (const ch of s.normalize("NFKC")) out += LOOK_ALIKE[ch] ?? ch;
  return out;
}

/** The last part of a tool id that makes it a runner of commands, code or queries. */
const RUNNERS = new Set(["exec", "shell", "sh", "bash", "cmd", "command", "commands", "query", "sql", "script", "terminal", "console", "repl", "spawn", "eval"]);

/** The actions a tool's id and description name, strongest first; empty for look-ups. */
export function toolActions(rawId: string, rawDescription: string | undefined): ToolAction[] {
  const id = latin(rawId);
  const description = rawDescription === undefined ? undefined : latin(rawDescription);
  const out: ToolAction[] = [];
  const money = MONEY.test(id.replace(/[._-]/g, " ")) || (description !== undefined && MONEY.test(description));
  const segments = id
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (segments.length > 0 && !segments.some((s) => READ_WORDS.has(s))) {
    // Verb-first ids (`send_email`, `book_flight`) and noun.verb ids (`payments.refund`, `hotel.book`).
    const dotted = id.includes(".") || id.includes("/");
    // In `slack.post_message` the verb opens the last dotted part.
    const lastPart = id.split(/[./]/).pop()!.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
    // A runner's namespace (`post.exec` of a film post-production team, `crm.query`) names
    // whose it is, not what it does: its arguments say that (risk-arguments.ts).
    const runner = dotted && lastPart.length === 1 && RUNNERS.has(lastPart[0]!);
    // In `billing.refund.exec` the part before the runner is what it runs: a refund.
    const parts = id.split(/[./]/);
    const runs = runner && parts.length > 2 ? parts[parts.length - 2]!.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)[0] : undefined;
    const ends = runner ? [runs !== undefined && !NOUNISH.has(idBase(runs)) ? runs : lastPart[0]!] : dotted ? [lastPart[0] ?? "", segments[segments.length - 1]!, segments[0]!] : [segments[0]!, segments[segments.length - 1]!];
    const candidates = runner ? ends : segments.some((x) => ACT_WORDS.has(x)) ? [...ends, ...segments] : ends;
    // A description that opens with a look-up says what the tool does: `ap.payment_run`
    // "Return the invoices of a payment run", `bss.order_lines` "List the lines of an order".
    const lookUp = description !== undefined && LOOK_UP.test(description.trim().replace(LEAD_IN, ""));
    for (const [k, s] of candidates.entries()) {
      const w = idBase(s);
      const cls = VERBS[w];
      if (!cls || (NEEDS_MONEY.has(w) && !money)) continue;
      // `stops.from_orders`: after a preposition a word is a noun.
      if (PREPOSITIONS.has(segments[segments.indexOf(s) - 1] ?? "")) continue;
      if (lookUp && NOUNISH.has(w)) continue;
      if (DOTTED_ONLY.has(w) && !(dotted && k <= 1)) continue;
      // "post_process_image" post-processes; it posts nothing.
      if (w === "post" && /^process/.test(segments[segments.indexOf(s) + 1] ?? "")) continue;
      out.push({ cls, risk: CLASS_RISK[cls], word: s, where: "id" });
      break;
    }
  }
  if (description) {
    const lead = description.trim().replace(LEAD_IN, "");
    const m = /^([A-Za-z]+)/.exec(lead);
    const first = m ? descriptionAction(m[1]!, money) : undefined;
    if (first) out.push(first);
    else {
      // A later clause's verb: "Creates the account, assigns the groups and sends the welcome
      // email"; "Adds an update to the queue; Buffer publishes it at scheduled_at".
      for (const c of description.matchAll(LATER_VERB)) {
        const act = descriptionAction(c[1]!, money);
        if (act) {
          out.push(act);
          break;
        }
      }
    }
  }
  return out;
}

/**
 * A verb that opens a later clause: after a comma, semicolon, `and`, `then` or `which`
 * (after punctuation perhaps behind a short subject: "; Buffer publishes it", ", it
 * sends"), in the third person, with its object right after ("sends the", "publishes it").
 * "Lists orders and refunds for a year" names refunds; "it does not send it" sends
 * nothing; "Checks that the customer pays the invoice" only checks.
 */
const LATER_VERB =
  /(?:[,;:.]\s+(?:(?:and|then)\s+|(?:it|this|the\s+[a-z]+|[A-Z][\w-]*)\s+)?|\s(?:and|then|which)\s+)([a-z]+s)\s+(?:the|a|an|it|them|its|their|this|that|these|those|each|every|all|your|his|her|our)\b/g;

function descriptionAction(word: string, money: boolean): ToolAction | undefined {
  const w = base(word.toLowerCase());
  const cls = VERBS[w];
  if (!cls || ID_ONLY.has(w) || (NEEDS_MONEY.has(w) && !money) || READ_WORDS.has(w)) return undefined;
  return { cls, risk: CLASS_RISK[cls], word, where: "description" };
}

/** An id segment's base form: itself or its singular (`refunds` → `refund`), never a guess at a tense. */
function idBase(segment: string): string {
  return segment in VERBS ? segment : segment.endsWith("s") && segment.slice(0, -1) in VERBS ? segment.slice(0, -1) : segment;
}

/** The base form of a verb or noun: "sends" → "send", "refunded" → "refund", "payments" → "payment". */
function base(word: string): string {
  if (word in VERBS) return word;
  for (const [suffix, repl] of [["ies", "y"], ["es", ""], ["s", ""], ["ed", ""], ["ing", ""], ["ed", "e"], ["ing", "e"], ["d", ""]] as const) {
    if (word.endsWith(suffix)) {
      const w = word.slice(0, -suffix.length) + repl;
      if (w in VERBS) return w;
    }
  }
  return word;
}
