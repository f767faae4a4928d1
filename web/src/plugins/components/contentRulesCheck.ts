// The content-rules checks the client can make before publishing
// (docs/plugins.md "content-rules"), on the entry as saved: the same rules,
// order and matching as the server's guard (ASCII case ignored, headings
// trimmed), with the hub's enabled rules tightening the tenant's
// (MergeRules: union of headings and terms, the smaller non-zero maximum).
// Secret findings and style rules are checked by the server at publish.
export interface Rules {
  requiredHeadings?: string[];
  forbiddenTerms?: string[];
  maxTitleLength?: number;
  maxTextLength?: number;
  requiredTranslations?: string[];
  noSecretFindings?: boolean;
  enforceStyleRules?: boolean;
}

export interface RuleResult {
  rule: "maxTitleLength" | "maxTextLength" | "forbiddenTerms" | "requiredHeadings" | "requiredTranslations";
  ok: boolean;
  // What failed: the lengths, the terms, the headings, the languages.
  detail: string;
}

interface Node {
  type?: string;
  text?: string;
  content?: Node[];
}

const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function minNonZero(a?: number, b?: number): number {
  const xs = [a ?? 0, b ?? 0].filter((x) => x > 0);
  return xs.length ? Math.min(...xs) : 0;
}

export function mergeRules(tenant: Rules, hub: Rules | null): Rules {
  if (!hub) return tenant;
  const union = (a?: string[], b?: string[]) => [...new Set([...(a ?? []), ...(b ?? [])])];
  return {
    ...tenant,
    requiredHeadings: union(tenant.requiredHeadings, hub.requiredHeadings),
    forbiddenTerms: union(tenant.forbiddenTerms, hub.forbiddenTerms),
    maxTitleLength: minNonZero(tenant.maxTitleLength, hub.maxTitleLength),
    maxTextLength: minNonZero(tenant.maxTextLength, hub.maxTextLength),
    requiredTranslations: union(tenant.requiredTranslations, hub.requiredTranslations),
    noSecretFindings: tenant.noSecretFindings === true || hub.noSecretFindings === true,
    enforceStyleRules: tenant.enforceStyleRules === true || hub.enforceStyleRules === true,
  };
}

function textOf(node: Node): string {
  if (node.text) return node.text;
  return (node.content ?? []).map(textOf).join("");
}

// Characters as the server counts them (code points).
const length = (s: string) => [...s].length;

export function checkRules(
  entry: { title: string; content: string },
  rules: Rules,
  translations: { language: string; status: string }[],
): RuleResult[] {
  let doc: Node = {};
  try {
    doc = JSON.parse(entry.content || "{}") as Node;
  } catch {
    doc = {};
  }
  const blocks = doc.content ?? [];
  const blockTexts = blocks.map(textOf);
  const results: RuleResult[] = [];
  if ((rules.maxTitleLength ?? 0) > 0) {
    const n = length(entry.title);
    results.push({ rule: "maxTitleLength", ok: n <= rules.maxTitleLength!, detail: `${n}/${rules.maxTitleLength}` });
  }
  if ((rules.maxTextLength ?? 0) > 0) {
    const n = length(entry.title) + blockTexts.reduce((a, t) => a + length(t), 0);
    results.push({ rule: "maxTextLength", ok: n <= rules.maxTextLength!, detail: `${n}/${rules.maxTextLength}` });
  }
  if (rules.forbiddenTerms?.length) {
    const all = lower([entry.title, ...blockTexts].join("\n"));
    const found = rules.forbiddenTerms.filter((t) => all.includes(lower(t)));
    results.push({ rule: "forbiddenTerms", ok: found.length === 0, detail: found.join(", ") });
  }
  if (rules.requiredHeadings?.length) {
    const headings = new Set(blocks.filter((b) => b.type === "heading").map((b) => lower(textOf(b).trim())));
    const missing = rules.requiredHeadings.filter((h) => !headings.has(lower(h.trim())));
    results.push({ rule: "requiredHeadings", ok: missing.length === 0, detail: missing.join(", ") });
  }
  if (rules.requiredTranslations?.length) {
    const status = new Map(translations.map((t) => [t.language, t.status]));
    const notReady = rules.requiredTranslations
      .filter((l) => status.get(l) !== "UpToDate")
      .map((l) => `${l} (${status.get(l) ?? "Missing"})`);
    results.push({ rule: "requiredTranslations", ok: notReady.length === 0, detail: notReady.join(", ") });
  }
  return results;
}
