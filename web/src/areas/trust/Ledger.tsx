// The decision ledger: its records newest first (GET
// /trust-admin/ledger/decisions, with filters and "Load more"), a decision
// as recorded (sources, verdicts, reasons, obligations, evidence), the
// chain's verification and its signed heads.
import { call, type Answer } from "../../api/client";
import "./trust.css";
import { useId, useState } from "react";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Link, Loading, Progress, navigate, useAction, useLoad } from "../../ui";
import { type Verification } from "./api";
import { TrustBadge, fmtTime, TableWrap } from "./common";
import { useS } from "./strings";

type DecisionLine = Answer<"/trust-admin/ledger/decisions", "get">["decisions"][number];
interface Filters {
  decision: string;
  channel: string;
  from: string;
  to: string;
}

export function LedgerPage() {
  const s = useS();
  const id = useId();
  const [decisionId, setDecisionId] = useState("");
  const [filters, setFilters] = useState<Filters>({ decision: "", channel: "", from: "", to: "" });
  const [applied, setApplied] = useState<Filters>(filters);
  const [more, setMore] = useState<{ lines: DecisionLine[]; cursor: number | null } | null>(null);
  const query = (f: Filters, cursor?: number) => ({
    decision: (f.decision || undefined) as "allow" | "warn" | "block" | undefined,
    channel: f.channel || undefined,
    from: f.from || undefined,
    to: f.to || undefined,
    cursor: cursor === undefined ? undefined : String(cursor),
  });
  const first = useLoad(() => call("get", "/trust-admin/ledger/decisions", { query: query(applied) }), [applied]);
  const loadMore = useAction();
  const lines = [...(first.data?.decisions ?? []), ...(more?.lines ?? [])];
  const cursor = more ? more.cursor : (first.data?.nextCursor ?? null);
  const set = (name: keyof Filters) => (e: { target: { value: string } }) => setFilters({ ...filters, [name]: e.target.value });
  return (
    <main className="trust-page">
      <h1>{s.ledgerTitle}</h1>
      <p className="lead">{s.ledgerLead}</p>
      <section aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>{s.decisionsTitle}</h2>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            setMore(null);
            setApplied(filters);
          }}
        >
          <label>
            {s.overall}{" "}
            <select name="decision" value={filters.decision} onChange={set("decision")}>
              <option value="">{s.any}</option>
              {(["allow", "warn", "block"] as const).map((v) => (
                <option key={v} value={v}>
                  {s.verdicts[v] ?? v}
                </option>
              ))}
            </select>
          </label>
          <label>
            {s.channel} <input name="channel" value={filters.channel} onChange={set("channel")} />
          </label>
          <label>
            {s.from} <input type="date" name="from" value={filters.from} onChange={set("from")} />
          </label>
          <label>
            {s.to} <input type="date" name="to" value={filters.to} onChange={set("to")} />
          </label>
          <button type="submit">{s.applyFilters}</button>
        </form>
        <ErrorBox error={first.error} />
        {first.loading && <Loading />}
        {first.data && lines.length === 0 && <EmptyState>{s.noDecisions}</EmptyState>}
        {lines.length > 0 && (
          <TableWrap label={s.decisionsTitle}>
            <table className="decisions">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{s.when}</th>
                  <th scope="col">{s.overall}</th>
                  <th scope="col">{s.actor}</th>
                  <th scope="col">{s.channel}</th>
                  <th scope="col">{s.sourcesCount}</th>
                </tr>
              </thead>
              <tbody>
                {lines.map((d) => (
                  <tr key={d.decisionId} data-decision-id={d.decisionId}>
                    <td>
                      <Link to={`/trust/ledger/${d.decisionId}`}>{d.sequence}</Link>
                    </td>
                    <td>{fmtTime(d.evaluatedAt)}</td>
                    <td>
                      <TrustBadge value={d.overallDecision} label={s.verdicts[d.overallDecision] ?? d.overallDecision} />
                    </td>
                    <td>
                      {d.actorLabel || "—"} <span className="hint">({d.actorKind})</span>
                    </td>
                    <td>{d.channel || "—"}</td>
                    <td>
                      {d.counts.total} ({d.counts.allowed}/{d.counts.warned}/{d.counts.blocked})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
        <ErrorBox error={loadMore.error} />
        {cursor !== null && lines.length > 0 && (
          <button
            type="button"
            disabled={loadMore.busy}
            onClick={async () => {
              const page = await loadMore.run(() =>
                call("get", "/trust-admin/ledger/decisions", { query: query(applied, cursor) }),
              );
              if (page) setMore({ lines: [...(more?.lines ?? []), ...page.decisions], cursor: page.nextCursor });
            }}
          >
            {s.loadMore}
          </button>
        )}
      </section>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (decisionId.trim()) navigate(`/trust/ledger/${encodeURIComponent(decisionId.trim())}`);
        }}
      >
        <label htmlFor={`${id}-decision`}>{s.decisionId}</label>
        <input id={`${id}-decision`} name="decisionId" value={decisionId} onChange={(e) => setDecisionId(e.target.value)} aria-describedby={`${id}-hint`} />
        <button type="submit">{s.openDecision}</button>
        <span className="hint" id={`${id}-hint`}>
          {s.decisionIdHint}
        </span>
      </form>
      <VerifyChain />
      <Heads />
    </main>
  );
}

function VerifyChain() {
  const s = useS();
  const id = useId();
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const verify = useAction();
  const [result, setResult] = useState<Verification | null>(null);
  return (
    <section aria-labelledby={`${id}-title`} className="panel">
      <h2 id={`${id}-title`}>{s.verifyTitle}</h2>
      <p className="hint">{s.verifyHint}</p>
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setResult(null);
          const r = await verify.run(() => call("get", "/trust-admin/ledger/verify", { query: { fromSequence: from || undefined, toSequence: to || undefined } }));
          if (r) setResult(r);
        }}
      >
        <label>
          {s.fromSequence} <input name="fromSequence" inputMode="numeric" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          {s.toSequence} <input name="toSequence" inputMode="numeric" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit" disabled={verify.busy}>
          {s.verifyChain}
        </button>
      </form>
      {verify.busy && <Progress label={s.verifying} />}
      <ErrorBox error={verify.error} />
      {result && <VerificationResult result={result} />}
    </section>
  );
}

function VerificationResult({ result }: { result: Verification }) {
  const s = useS();
  const headsOk = !result.heads.firstInvalid;
  const ok = result.ok && headsOk;
  return (
    <div className={ok ? "verdict verified" : "verdict broken"} role="status" data-verification={ok ? "verified" : "broken"}>
      <p className="verdict-title">
        <strong>{ok ? s.verified : s.broken}</strong>
      </p>
      <p>{s.recordsChecked.replace("{n}", String(result.checked)).replace("{h}", String(result.heads.checked))}</p>
      {result.firstInvalid && (
        <p>
          {s.firstInvalidRecord}: #{result.firstInvalid.sequence} (<Link to={`/trust/ledger/${result.firstInvalid.decisionId}`}>{result.firstInvalid.decisionId}</Link>) —{" "}
          {result.firstInvalid.problem}
        </p>
      )}
      {result.heads.firstInvalid && (
        <p>
          {s.firstInvalidHead}: #{result.heads.firstInvalid.sequence ?? "?"} {result.heads.firstInvalid.outside ? `(${s.outsideHead})` : ""} —{" "}
          {result.heads.firstInvalid.problem}
        </p>
      )}
    </div>
  );
}

function Heads() {
  const s = useS();
  const id = useId();
  const heads = useLoad(() => call("get", "/trust-admin/ledger/heads", { query: { limit: "10" } }), []);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{s.signedHeads}</h2>
      <p className="hint">{s.signedHeadsHint}</p>
      <ErrorBox error={heads.error} />
      {heads.loading && <Loading />}
      {heads.data && heads.data.items.length === 0 && <EmptyState>{s.noHeads}</EmptyState>}
      {heads.data && heads.data.items.length > 0 && (
        <TableWrap label={s.signedHeads}>
          <table>
            <caption className="visually-hidden">{s.signedHeads}</caption>
            <thead>
              <tr>
                <th scope="col">{s.sequence}</th>
                <th scope="col">{s.hash}</th>
                <th scope="col">{s.signedAt}</th>
                <th scope="col">{s.keyId}</th>
              </tr>
            </thead>
            <tbody>
              {heads.data.items.map((h) => (
                <tr key={h.sequence}>
                  <td>{h.sequence}</td>
                  <td>
                    <code className="hash">{h.hash}</code>
                  </td>
                  <td>{fmtTime(h.signedAt)}</td>
                  <td>
                    <code>{h.keyId}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

interface Reason {
  code: string;
  dimension: string;
  severity: string;
  message: string;
  data?: Record<string, unknown>;
}
interface RecordedSource {
  sourceId: string;
  resolved: boolean;
  title: string | null;
  entryId: string | null;
  origin: string | null;
  decision: string;
  escalated: boolean;
  reasons: Reason[];
  freshnessScore?: number;
  classification?: string;
  sensitivity?: string | null;
  policySource?: string;
  recommendedAction?: string;
  requirements?: { citationRequired: boolean; disclaimerRequired: boolean; disclaimerText: string | null };
  state?: Record<string, unknown>;
}

export function DecisionPage({ params }: PageProps) {
  const s = useS();
  const decisionId = params.decisionId;
  const decision = useLoad(async () => {
    const d = await call("get", "/api/trust/decisions/{decisionId}", { params: { decisionId } });
    return d;
  }, [decisionId]);
  const d = decision.data;
  const sources = (d?.sources ?? []) as unknown as RecordedSource[];
  return (
    <main className="trust-page">
      <p>
        <Link to="/trust/ledger">← {s.ledgerTitle}</Link>
      </p>
      <h1>{s.decision}</h1>
      <p>
        <code>{decisionId}</code>
      </p>
      <ErrorBox error={decision.error} />
      {decision.loading && <Loading />}
      {d && (
        <>
          <dl className="facts" data-overall={d.overallDecision}>
            <dt>{s.overall}</dt>
            <dd>
              <TrustBadge value={d.overallDecision} label={s.verdicts[d.overallDecision] ?? d.overallDecision} />
            </dd>
            <dt>{s.evaluatedAt}</dt>
            <dd>{fmtTime(d.evaluatedAt)}</dd>
            <dt>{s.endpoint}</dt>
            <dd>{d.endpoint}</dd>
            <dt>{s.actor}</dt>
            <dd>
              {d.actorKind === "machine" ? s.machine : s.user}
              {d.actorLabel && ` · ${d.actorLabel}`}
              {d.actorType && ` · ${d.actorType}`}
            </dd>
            {d.app && (
              <>
                <dt>{s.app}</dt>
                <dd>
                  <Link to={`/trust/apps/${d.app.id}`}>{d.app.name}</Link> ({d.app.channel}, {s.riskLabels[d.app.risk as "low"] ?? d.app.risk})
                </dd>
              </>
            )}
            <dt>{s.channel}</dt>
            <dd>
              <code>{d.channel || "—"}</code>
            </dd>
            <dt>{s.action}</dt>
            <dd>
              <code>{d.action || "—"}</code>
            </dd>
            <dt>{s.counts}</dt>
            <dd>
              {s.countsLine
                .replace("{t}", String(d.counts.total))
                .replace("{a}", String(d.counts.allowed))
                .replace("{w}", String(d.counts.warned))
                .replace("{b}", String(d.counts.blocked))
                .replace("{e}", String(d.counts.escalated))}
            </dd>
            <dt>{s.chainPlace}</dt>
            <dd>
              #{d.sequence} · {s.hash} <code className="hash">{d.hash}</code> · {s.previousHash} <code className="hash">{d.previousHash}</code>
            </dd>
          </dl>
          <h2>{s.sourcesTitle}</h2>
          {sources.map((src, i) => (
            <section key={i} className="source-card" data-source-id={src.sourceId} data-verdict={src.decision} aria-labelledby={`src-${i}`}>
              <h3 id={`src-${i}`}>
                {src.title ?? src.sourceId} <TrustBadge value={src.decision} label={s.verdicts[src.decision] ?? src.decision} />
                {src.escalated && <TrustBadge value="escalated" label={s.escalated} />}
              </h3>
              <p>
                <code>{src.sourceId}</code> · {src.resolved ? (src.origin ?? "") : s.unresolved}
                {src.classification && ` · ${src.classification}`}
                {src.policySource && ` · ${s.policySourceLabel}: ${src.policySource}`}
                {src.freshnessScore !== undefined && ` · ${s.freshness}: ${src.freshnessScore}`}
              </p>
              <h4>{s.reasons}</h4>
              {src.reasons.length === 0 ? (
                <p>{s.noReasons}</p>
              ) : (
                <ul>
                  {src.reasons.map((r, j) => (
                    <li key={j} data-reason-code={r.code}>
                      <TrustBadge value={r.severity} label={s.verdicts[r.severity] ?? r.severity} /> <code>{r.code}</code> ({r.dimension}): {r.message}
                    </li>
                  ))}
                </ul>
              )}
              {src.requirements && (
                <>
                  <h4>{s.obligations}</h4>
                  <ul>
                    <li>
                      {s.citationRequired}: {src.requirements.citationRequired ? s.yes : s.no}
                    </li>
                    <li>
                      {s.disclaimerRequired}: {src.requirements.disclaimerRequired ? s.yes : s.no}
                      {src.requirements.disclaimerText && ` — “${src.requirements.disclaimerText}”`}
                    </li>
                    {src.recommendedAction && (
                      <li>
                        {s.recommendedAction}: <code>{src.recommendedAction}</code>
                      </li>
                    )}
                  </ul>
                </>
              )}
              {src.state && (
                <details>
                  <summary>{s.evidence}</summary>
                  <pre>
                    <code>{JSON.stringify(src.state, null, 2)}</code>
                  </pre>
                </details>
              )}
            </section>
          ))}
          <details>
            <summary>{s.contextRecorded}</summary>
            <pre>
              <code>{JSON.stringify(d.context, null, 2)}</code>
            </pre>
          </details>
        </>
      )}
    </main>
  );
}
