// Filtering retrieved candidates: what the LangChain retriever and the
// LlamaIndex postprocessor share, and what a hand-written pipeline needs too.
import { CredenceError } from "./errors.js";
import type { Reason, Requirements, SourceDecision, TrustContext } from "./types.js";

/** The most sources one evaluate or filter-sources request takes (docs/trust.md, "Requests"). */
export const MAX_SOURCES_PER_REQUEST = 100;

/** The metadata key the retrievers put a kept document's decision under. */
export const TRUST_METADATA_KEY = "credence";

export interface CandidateDecision<T> {
  item: T;
  sourceId: string;
  /** The ledger record this candidate was decided in. */
  decisionId: string;
  decision: SourceDecision;
}

export interface FilteredCandidates<T> {
  /**
   * The ledger records made: one per request, and a request carries up to
   * 100 distinct source ids, so one for any ordinary retrieval; empty when no
   * candidate had a source id.
   */
  decisionIds: string[];
  /** Allowed and warned candidates, in their input order. */
  kept: CandidateDecision<T>[];
  /** Blocked (escalations included) candidates, in their input order: they must not enter a prompt. */
  blocked: CandidateDecision<T>[];
  /** Candidates without a source id: nothing could be asked about them. */
  unidentified: T[];
}

/** What a retriever puts under `metadata.credence` of each document it keeps. */
export interface TrustAnnotation {
  decisionId: string;
  sourceId: string;
  decision: "allow" | "warn";
  /** Why: for a warned source, what to tell the reader or fix (docs/trust-rules.md). */
  reasons: Reason[];
  /** The obligations: citation, disclaimer (with its text). */
  requirements: Requirements;
  freshnessScore: number;
}

export function annotationOf(candidate: CandidateDecision<unknown>): TrustAnnotation {
  const { decision } = candidate;
  return {
    decisionId: candidate.decisionId,
    sourceId: candidate.sourceId,
    decision: decision.decision === "warn" ? "warn" : "allow",
    reasons: decision.reasons,
    requirements: decision.requirements,
    freshnessScore: decision.freshnessScore,
  };
}

type FilterSources = (
  sources: string[],
  context: TrustContext | undefined,
) => Promise<{ decisionId: string; allowed: SourceDecision[]; warned: SourceDecision[]; blocked: SourceDecision[] }>;

export async function filterCandidates<T>(
  filterSources: FilterSources,
  items: readonly T[],
  sourceIdOf: (item: T) => string | null | undefined,
  context: TrustContext | undefined,
): Promise<FilteredCandidates<T>> {
  const ids = items.map((item) => {
    const id = sourceIdOf(item);
    return typeof id === "string" && id !== "" ? id : undefined;
  });
  // Chunks of one document share their source: it is asked about once.
  const distinct = [...new Set(ids.filter((id): id is string => id !== undefined))];
  const batches: string[][] = [];
  for (let i = 0; i < distinct.length; i += MAX_SOURCES_PER_REQUEST) {
    batches.push(distinct.slice(i, i + MAX_SOURCES_PER_REQUEST));
  }
  const answers = await Promise.all(batches.map((batch) => filterSources(batch, context)));

  const bySource = new Map<string, { decisionId: string; decision: SourceDecision; kept: boolean }>();
  for (const answer of answers) {
    // The partition is the answer: a source in `blocked` is blocked, whatever else it says.
    for (const decision of answer.allowed) bySource.set(decision.sourceId, { decisionId: answer.decisionId, decision, kept: true });
    for (const decision of answer.warned) bySource.set(decision.sourceId, { decisionId: answer.decisionId, decision, kept: true });
    for (const decision of answer.blocked) bySource.set(decision.sourceId, { decisionId: answer.decisionId, decision, kept: false });
  }

  const result: FilteredCandidates<T> = { decisionIds: answers.map((a) => a.decisionId), kept: [], blocked: [], unidentified: [] };
  items.forEach((item, i) => {
    const sourceId = ids[i];
    if (sourceId === undefined) {
      result.unidentified.push(item);
      return;
    }
    const found = bySource.get(sourceId);
    if (!found) {
      // The server answers every source it is sent; if it ever did not, failing beats guessing.
      throw new CredenceError(`Credence answered no decision for ${sourceId}`);
    }
    const candidate = { item, sourceId, decisionId: found.decisionId, decision: found.decision };
    (found.kept ? result.kept : result.blocked).push(candidate);
  });
  return result;
}
