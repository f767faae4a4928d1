// Names for the trust plane's shapes, taken from the generated types so they
// follow the server's OpenAPI document (docs/trust.md).
import type { paths } from "./generated/schema.js";

type JsonBody<T> = T extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
type JsonAnswer<T, Status extends number> = T extends {
  responses: { [S in Status]: { content: { "application/json": infer A } } };
}
  ? A
  : never;

export type EvaluateRequest = JsonBody<paths["/api/trust/evaluate"]["post"]>;
export type EvaluateAnswer = JsonAnswer<paths["/api/trust/evaluate"]["post"], 200>;
export type FilterSourcesRequest = JsonBody<paths["/api/trust/filter-sources"]["post"]>;
export type FilterSourcesAnswer = JsonAnswer<paths["/api/trust/filter-sources"]["post"], 200>;
/** Who asks, for what and where: `{actorType, actorLabel, action, channel, externalModel, language}`, all optional. */
export type TrustContext = NonNullable<FilterSourcesRequest["context"]>;
/** The per-source decision object (docs/trust.md, "The decision object"). */
export type SourceDecision = FilterSourcesAnswer["allowed"][number];
/** `{code, dimension, severity, message, data}` (docs/trust-rules.md). */
export type Reason = SourceDecision["reasons"][number];
/** The obligations of a source that may be used: `{citationRequired, disclaimerRequired, disclaimerText}`. */
export type Requirements = SourceDecision["requirements"];
/** A ledger record as it was at decision time. */
export type DecisionRecord = JsonAnswer<paths["/api/trust/decisions/{decisionId}"]["get"], 200>;
export type SourceMetadata = JsonAnswer<paths["/api/trust/sources"]["get"], 200>;
export type UsageRequest = JsonBody<paths["/api/trust/usage"]["post"]>;
export type UsageAnswer = JsonAnswer<paths["/api/trust/usage"]["post"], 202>;
export type WhoAmI = JsonAnswer<paths["/api/trust/whoami"]["get"], 200>;
