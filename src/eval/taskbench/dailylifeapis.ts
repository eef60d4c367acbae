/**
 * TaskBench's dailylifeapis domain: 40 tools with typed `parameters` (no input/output
 * types) whose plans link nodes by time (`task_links`), not by data. Unlike multimedia,
 * most of them act on the world: they book, pay, buy, send and publish. Each tool's risk
 * below was reviewed by hand, with the reason a reviewer would give (docs/evals.md has
 * the table); an unknown tool is treated as `external`, the safe side.
 */
import type { JsonValue, Risk, StepKind } from "../../ir.js";
import type { DslStep, ImportNote, PlanDoc } from "./convert.js";
import { maxToolCallsFor, TASKBENCH_CANNOT_EXPRESS } from "./convert.js";
import { IMPORT_KEY, importMarkJson } from "../../lint/import-mark.js";
import type { TaskBenchRecord } from "./record.js";
import type { DslToolEntry } from "./tool-desc.js";

export interface ToolReview {
  risk: Risk;
  /** Why: what the call changes, and for whom. */
  reason: string;
}

const ext = (reason: string): ToolReview => ({ risk: "external", reason });
const write = (reason: string): ToolReview => ({ risk: "write", reason });
const read = (reason: string): ToolReview => ({ risk: "read", reason });

/** The reviewed risk of every dailylifeapis tool, in tool_desc.json's order. */
export const DAILYLIFE_REVIEW: Readonly<Record<string, ToolReview>> = {
  get_weather: read("looks up a forecast; changes nothing"),
  get_news_for_topic: read("fetches articles; changes nothing"),
  stock_operation: ext("places a buy/sell/short order with a broker: real money, not reversible at the same price"),
  book_flight: ext("reserves and pays a seat with an airline; a repeat books a second ticket"),
  book_hotel: ext("reserves a room with a hotel, usually with a card guarantee; a repeat double-books"),
  book_restaurant: ext("reserves a table with a third party, who holds it (and may charge a no-show fee)"),
  book_car: ext("rents a car from an agency against a card"),
  online_shopping: ext("buys a product: a payment and an order a merchant ships"),
  send_email: ext("a message leaves for another person and cannot be unsent"),
  send_sms: ext("a text reaches another person's phone and cannot be unsent"),
  share_by_social_network: ext("publishes content to the public or to followers"),
  search_by_engine: read("runs a web search; changes nothing"),
  apply_for_job: ext("submits an application, with personal data, to an employer"),
  see_doctor_online: ext("books a (billed) consultation and shares health data with a clinician"),
  consult_lawyer_online: ext("engages a lawyer: a billed consultation and a confidential disclosure"),
  enroll_in_course: ext("registers at a university, which commits the student to tuition"),
  buy_insurance: ext("signs an insurance contract and starts premium payments"),
  online_banking: ext("executes a banking instruction, a transfer in most requests: money leaves the account"),
  daily_bill_payment: ext("pays a bill: money leaves the account"),
  sell_item_online: ext("lists an item for sale publicly; a buyer may then hold the seller to it"),
  do_tax_return: ext("files a return with the tax authority: a legal declaration"),
  apply_for_passport: ext("submits an application with personal data to a government office"),
  pay_for_credit_card: ext("pays a card balance: money leaves the account"),
  auto_housework_by_robot: ext("drives a robot in the physical home: the effect happens outside any workspace and cannot be rolled back"),
  auto_driving_to_destination: ext("moves a car on public roads: physical and safety-critical"),
  deliver_package: ext("dispatches a courier with a package: a paid service acting in the world"),
  order_food_delivery: ext("orders and pays food from a restaurant through a platform"),
  order_taxi: ext("books a driver through a platform, who comes and charges"),
  play_music_by_title: write("changes what the user's own device plays; reversible, nobody else affected"),
  play_movie_by_title: write("changes what the user's own device plays; reversible, nobody else affected"),
  take_note: write("adds a note to the user's own notes"),
  borrow_book_online: ext("takes out a loan from a library, with a due date and fines"),
  recording_audio: write("records a new audio file on the user's own device"),
  make_video_call: ext("rings another person"),
  make_voice_call: ext("rings another person"),
  organize_meeting_online: ext("creates a meeting and invites other people to it"),
  attend_meeting_online: ext("joins a meeting that other people see the user in"),
  software_management: write("installs, updates or removes software on the user's own machine"),
  print_document: write("prints on the user's own printer (paper and ink, no third party)"),
  set_alarm: write("sets an alarm on the user's own device"),
};

/** One dailylifeapis tool: `{ id, desc, parameters: [{ name, type, desc }] }`. */
export interface DailyLifeTool {
  id: string;
  desc: string;
  parameters: Array<{ name: string; type: string; desc: string }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The tools of a parsed tool_desc.json when it is dailylifeapis-shaped (typed `parameters`, no `input-type`), else undefined. */
export function dailyLifeTools(data: unknown): DailyLifeTool[] | undefined {
  const nodes = isObject(data) && Array.isArray(data.nodes) ? data.nodes : Array.isArray(data) ? data : undefined;
  if (!nodes || nodes.length === 0) return undefined;
  const out: DailyLifeTool[] = [];
  for (const n of nodes) {
    if (!isObject(n) || typeof n.id !== "string" || !Array.isArray(n.parameters) || "input-type" in n) return undefined;
    const parameters = n.parameters.filter(isObject).map((p) => ({ name: String(p.name ?? ""), type: String(p.type ?? "string"), desc: String(p.desc ?? "") }));
    out.push({ id: n.id, desc: typeof n.desc === "string" ? n.desc : "", parameters });
  }
  return out;
}

/** The reviewed risk of a tool; a tool the review does not know is `external`. */
export function dailyLifeRisk(id: string): Risk {
  return DAILYLIFE_REVIEW[id]?.risk ?? "external";
}

/** The step kind of a step calling the tool: the search engine searches, lookups read, the rest act as their risk says. */
export function dailyLifeKind(id: string): StepKind {
  if (id === "search_by_engine") return "search";
  const risk = dailyLifeRisk(id);
  return risk === "read" ? "read" : risk;
}

/** The catalogue entry: reviewed risk, description and the typed parameters as an object `input_schema`. */
export function dailyLifeToolEntry(tool: DailyLifeTool): DslToolEntry {
  const properties: { [key: string]: JsonValue } = {};
  for (const p of tool.parameters) {
    properties[p.name] = p.type === "date" ? { type: "string", description: `${p.desc} (a date)` } : { type: p.type === "number" ? "number" : "string", description: p.desc };
  }
  return {
    risk: dailyLifeRisk(tool.id),
    ...(tool.desc ? { description: tool.desc } : {}),
    input_schema: { type: "object", required: tool.parameters.map((p) => p.name), properties, additionalProperties: false },
  };
}

/** A step whose `with` holds the tool's named parameters (its `input_schema`), not positional `args`. */
export type DailyLifeStep = Omit<DslStep, "with"> & { with: { [name: string]: JsonValue } };
export type DailyLifePlanDoc = Omit<PlanDoc, "steps"> & { steps: { [id: string]: DailyLifeStep } };

/**
 * A dailylifeapis prediction as a plan document: one step per node, `with` built from its
 * `{ name, value }` arguments, `needs` from `task_links` (source tool → target tool; a tool
 * named by several nodes links each of them). Side effects are written as the model wrote
 * them, without approvals or keys: that is for the linter to judge.
 */
export function toDailyLifePlanDoc(record: TaskBenchRecord, tools: ReadonlyMap<string, DailyLifeTool>): { doc: DailyLifePlanDoc; notes: ImportNote[] } {
  const notes: ImportNote[] = [];
  const catalogue: { [name: string]: DslToolEntry } = Object.create(null);
  const steps: { [id: string]: DailyLifeStep } = {};
  const n = record.nodes.length;
  const indices = (task: unknown) => record.nodes.flatMap((node, i) => (node.task === task ? [i] : []));
  const needs = record.nodes.map(() => new Set<number>());
  for (const link of Array.isArray(record.taskLinks) ? record.taskLinks : []) {
    if (!isObject(link)) continue;
    for (const t of indices(link.target)) for (const s of indices(link.source)) if (s !== t) needs[t]!.add(s);
  }
  for (const [i, node] of record.nodes.entries()) {
    const known = tools.get(node.task);
    if (known) catalogue[node.task] ??= dailyLifeToolEntry(known);
    else notes.push({ kind: "unknown-tool", node: i, message: `node ${i} calls "${node.task}", which is not in tool_desc` });
    const args: { [key: string]: JsonValue } = Object.create(null);
    if (Array.isArray(node.arguments)) {
      for (const a of node.arguments) if (isObject(a) && typeof a.name === "string") args[a.name] = (a.value ?? null) as JsonValue;
    } else if (node.arguments !== undefined) notes.push({ kind: "non-list-arguments", node: i, message: `node ${i}: arguments is not a list of { name, value }` });
    const step = record.taskSteps[i];
    steps[`node_${i}`] = {
      kind: dailyLifeKind(node.task),
      goal: typeof step === "string" && step.trim() ? step.replace(/^\s*step\s*\d+\s*[:.)-]\s*/i, "").trim() : `Run ${node.task}`,
      tool: node.task,
      ...(needs[i]!.size ? { needs: [...needs[i]!].sort((a, b) => a - b).map((j) => `node_${j}`) } : {}),
      with: args,
      output: `node_${i}_out`,
    };
  }
  const slug = record.id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return {
    doc: {
      planspec: 1,
      name: slug === "" ? "taskbench" : `taskbench-${slug}`,
      goal: record.userRequest,
      [IMPORT_KEY]: importMarkJson("taskbench", TASKBENCH_CANNOT_EXPRESS),
      tools: catalogue,
      limits: { max_tool_calls: maxToolCallsFor(n) },
      steps,
    },
    notes,
  };
}
