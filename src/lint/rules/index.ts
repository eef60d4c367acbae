/** The explicit registry of lint rules, sorted by id. */
import type { Rule } from "../rule.js";
import { rule as approvalNotGating } from "./approval-not-gating.js";
import { rule as approvalWithoutApprovers } from "./approval-without-approvers.js";
import { rule as approvalWithoutTimeout } from "./approval-without-timeout.js";
import { rule as broadToolGrant } from "./broad-tool-grant.js";
import { rule as concurrentWrites } from "./concurrent-writes.js";
import { rule as deepChain } from "./deep-chain.js";
import { rule as duplicateStep } from "./duplicate-step.js";
import { rule as excessiveBound } from "./excessive-bound.js";
import { rule as externalWithoutApproval } from "./external-without-approval.js";
import { rule as goalDrift } from "./goal-drift.js";
import { rule as highImpactWithoutApproval } from "./high-impact-without-approval.js";
import { rule as missingDeliverable } from "./missing-deliverable.js";
import { rule as missingSuccessCriteria } from "./missing-success-criteria.js";
import { rule as offGoalStep } from "./off-goal-step.js";
import { rule as overPlanning } from "./over-planning.js";
import { rule as phaseWithoutBounds } from "./phase-without-bounds.js";
import { rule as pollWithoutDelay } from "./poll-without-delay.js";
import { rule as redundantDependency } from "./redundant-dependency.js";
import { rule as retryWithoutIdempotency } from "./retry-without-idempotency.js";
import { rule as revisionAddsFilter } from "./revision-adds-filter.js";
import { rule as revisionLoosensCheck } from "./revision-loosens-check.js";
import { rule as revisionRemovesSafeguard } from "./revision-removes-safeguard.js";
import { rule as revisionReroutesDeliverable } from "./revision-reroutes-deliverable.js";
import { rule as riskUnderLabelled } from "./risk-under-labelled.js";
import { rule as riskyStepWithoutTimeout } from "./risky-step-without-timeout.js";
import { rule as secretInArguments } from "./secret-in-arguments.js";
import { rule as toolArgumentMismatch } from "./tool-argument-mismatch.js";
import { rule as sideEffectWithoutIdempotencyKey } from "./side-effect-without-idempotency-key.js";
import { rule as summaryWithoutEvidence } from "./summary-without-evidence.js";
import { rule as toolCallBudget } from "./tool-call-budget.js";
import { rule as unboundedLoop } from "./unbounded-loop.js";
import { rule as unsafeRevision } from "./unsafe-revision.js";
import { rule as unusedHypothesis } from "./unused-hypothesis.js";
import { rule as unusedInput } from "./unused-input.js";
import { rule as unusedOutput } from "./unused-output.js";
import { rule as unverifiedHypothesis } from "./unverified-hypothesis.js";
import { rule as vagueStepGoal } from "./vague-step-goal.js";
import { rule as vagueSuccessCriteria } from "./vague-success-criteria.js";
import { rule as wiringTypeMismatch } from "./wiring-type-mismatch.js";
import { rule as writeWithoutEvidence } from "./write-without-evidence.js";
import { rule as writeWithoutVerification } from "./write-without-verification.js";

export const rules: Rule[] = [
  approvalNotGating,
  approvalWithoutApprovers,
  approvalWithoutTimeout,
  broadToolGrant,
  concurrentWrites,
  deepChain,
  duplicateStep,
  excessiveBound,
  externalWithoutApproval,
  goalDrift,
  highImpactWithoutApproval,
  missingDeliverable,
  missingSuccessCriteria,
  offGoalStep,
  overPlanning,
  phaseWithoutBounds,
  pollWithoutDelay,
  redundantDependency,
  retryWithoutIdempotency,
  revisionAddsFilter,
  revisionLoosensCheck,
  revisionRemovesSafeguard,
  revisionReroutesDeliverable,
  riskUnderLabelled,
  riskyStepWithoutTimeout,
  secretInArguments,
  sideEffectWithoutIdempotencyKey,
  summaryWithoutEvidence,
  toolArgumentMismatch,
  toolCallBudget,
  unboundedLoop,
  unsafeRevision,
  unusedHypothesis,
  unusedInput,
  unusedOutput,
  unverifiedHypothesis,
  vagueStepGoal,
  vagueSuccessCriteria,
  wiringTypeMismatch,
  writeWithoutEvidence,
  writeWithoutVerification,
];
