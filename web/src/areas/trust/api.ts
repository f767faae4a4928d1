// The trust area's API types and small helpers (its calls are
// api/client.ts's `call`; downloads are api/files.ts's).
import { queryString, type Answer } from "../../api/client";
import type { paths } from "../../api/schema";

export { downloadFile as download, filenameFromDisposition } from "../../api/files";

export { errorFor, fieldErrors, type FieldError } from "../../api/client";

// A path with its query string (empty values left out).
export function withQuery(path: string, query?: Record<string, string | undefined>): string {
  return path + queryString(query);
}

// The name the server gives an export (docs/reports.md), for when the
// header is not readable.
export function reportFileName(key: string, from: string, to: string, appId: string | null | undefined, format: "csv" | "json"): string {
  return `credence-${key}-${from}-to-${to}${appId ? `-app-${appId}` : ""}.${format}`;
}

// UTC day as YYYY-MM-DD, `offset` days from `now`.
export function utcDay(now: Date, offset = 0): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
  return d.toISOString().slice(0, 10);
}

export type App = Answer<"/trust-admin/apps/{id}", "get">;
export type AppKey = Answer<"/trust-admin/apps/{id}/keys", "get">["items"][number];
export type AppStats = Answer<"/trust-admin/apps/{id}/stats", "get">;
export type ApiKey = Answer<"/api/apikeys", "get">[number];
export type PolicyLevel = Answer<"/trust-admin/policies/tenant", "get">;
export type Policy = PolicyLevel["policy"];
export type Effective = PolicyLevel["effective"];
export type ContextVocabulary = Answer<"/trust-admin/context", "get">;
export type Sensitivity = Answer<"/trust-admin/sensitivity", "get">;
export type Connector = Answer<"/trust-admin/connectors/{id}", "get">;
export type ConnectorRun = Answer<"/trust-admin/connectors/{id}/runs/{runId}", "get">;
export type Finding = Answer<"/trust-admin/findings", "get">["findings"][number];
export type Decision = Answer<"/api/trust/decisions/{decisionId}", "get">;
export type Verification = Answer<"/trust-admin/ledger/verify", "get">;
export type ReportInfo = Answer<"/trust-admin/reports", "get">["reports"][number];
export type Report = Answer<"/trust-admin/reports/{key}", "get">;
export type WhatIfRequest = NonNullable<paths["/trust-admin/what-if"]["post"]["requestBody"]>["content"]["application/json"];
export type WhatIfChange = WhatIfRequest["changes"][number];
export type WhatIfTarget = WhatIfChange["target"];
export type WhatIfResult = Answer<"/trust-admin/what-if", "post">;
export type WhatIfMove = WhatIfResult["moves"][number];
