// Compliance reports (docs/reports.md): run one over a window of UTC days,
// optionally for one app; a table and a bar chart; CSV and JSON downloads.
import { call } from "../../api/client";
import "./trust.css";
import { useEffect, useId, useState } from "react";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Loading, Progress, useAction, useLoad } from "../../ui";
import { reportFileName, utcDay, withQuery, type Report } from "./api";
import { BarChart } from "../../charts/BarChart";
import { barsOf, chartColumns } from "./chart";
import { DownloadButtons, FieldError, fmtTime, TableWrap } from "./common";
import { useS } from "./strings";

export function ReportsPage({ query }: PageProps) {
  const s = useS();
  const id = useId();
  const reports = useLoad(() => call("get", "/trust-admin/reports"), []);
  const apps = useLoad(() => call("get", "/trust-admin/apps", { query: { includeArchived: "true" } }), []);
  const [key, setKey] = useState(query.get("key") ?? "");
  const [from, setFrom] = useState(query.get("from") ?? utcDay(new Date(), -29));
  const [to, setTo] = useState(query.get("to") ?? utcDay(new Date()));
  const [appId, setAppId] = useState(query.get("appId") ?? "");
  const runner = useAction();
  const [report, setReport] = useState<Report | null>(null);
  const chosen = reports.data?.reports.find((r) => r.key === key);
  const runReport = async () => {
    setReport(null);
    const r = await runner.run(() => call("get", "/trust-admin/reports/{key}", { params: { key }, query: { from, to, appId } }));
    if (r) setReport(r);
  };
  // A link with ?key= (a bookmark, a reload) shows the report at once.
  useEffect(() => {
    if (query.get("key")) void runReport();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <main className="trust-page">
      <h1>{s.reportsTitle}</h1>
      <p className="lead">{s.reportsLead}</p>
      <ErrorBox error={reports.error} />
      {reports.loading && <Loading />}
      {reports.data && reports.data.reports.length === 0 && <EmptyState>{s.noReports}</EmptyState>}
      {reports.data && reports.data.reports.length > 0 && (
        <form
          className="panel"
          aria-labelledby={`${id}-title`}
          onSubmit={async (e) => {
            e.preventDefault();
            window.history.replaceState(null, "", withQuery("/trust/reports", { key, from, to, appId }));
            await runReport();
          }}
        >
          <h2 id={`${id}-title`}>{s.runReport}</h2>
          <div className="field">
            <label htmlFor={`${id}-key`}>{s.report}</label>
            <select id={`${id}-key`} name="report" required value={key} onChange={(e) => setKey(e.target.value)} aria-describedby={`${id}-desc`}>
              <option value="">{s.chooseReport}</option>
              {reports.data.reports.map((r) => (
                <option key={r.key} value={r.key}>
                  {r.title}
                </option>
              ))}
            </select>
            <span className="hint" id={`${id}-desc`}>
              {chosen?.description ?? ""}
            </span>
          </div>
          <div className="inline-form">
            <div className="field">
              <label htmlFor={`${id}-from`}>{s.from}</label>
              <input id={`${id}-from`} name="from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} aria-describedby={`${id}-from-err`} />
              <FieldError error={runner.error} field="from" id={`${id}-from-err`} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-to`}>{s.to}</label>
              <input id={`${id}-to`} name="to" type="date" value={to} onChange={(e) => setTo(e.target.value)} aria-describedby={`${id}-to-err`} />
              <FieldError error={runner.error} field="to" id={`${id}-to-err`} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-app`}>{s.appOptional}</label>
              <select id={`${id}-app`} name="appId" value={appId} onChange={(e) => setAppId(e.target.value)}>
                <option value="">{s.allCallers}</option>
                {apps.data?.items.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p className="hint">{s.windowHint}</p>
          <p className="actions">
            <button type="submit" disabled={runner.busy || !key}>
              {s.run}
            </button>
          </p>
          {runner.busy && <Progress label={s.reportRunning} />}
          <ErrorBox error={runner.error} />
        </form>
      )}
      {report && <ReportView report={report} />}
    </main>
  );
}

function cell(value: unknown, type: string, none: string): string {
  if (value === null || value === undefined) return none;
  if (type === "timestamp" && typeof value === "string") return fmtTime(value);
  if (type === "number" && typeof value === "number") return value.toFixed(4);
  return String(value);
}

function ReportView({ report }: { report: Report }) {
  const s = useS();
  const rows = report.rows as unknown[][];
  const pick = chartColumns(report.columns);
  const bars = barsOf(report.columns, rows, s.none);
  const exportFile = (format: "csv" | "json", label: string) => ({
    label,
    url: withQuery(`/trust-admin/reports/${encodeURIComponent(report.key)}/export`, { from: report.from, to: report.to, appId: report.appId ?? undefined, format }),
    fallbackName: reportFileName(report.key, report.from, report.to, report.appId, format),
  });
  return (
    <section aria-labelledby="report-title" data-report={report.key}>
      <h2 id="report-title">{report.title}</h2>
      <p className="hint">
        {report.from} – {report.to} · {s.generatedAt} {fmtTime(report.generatedAt)} · {s.rowsCount.replace("{n}", String(rows.length))}
      </p>
      <DownloadButtons files={[exportFile("csv", s.downloadCsv), exportFile("json", s.downloadJson)]} />
      {rows.length === 0 ? (
        <EmptyState>{s.emptyReport}</EmptyState>
      ) : (
        <>
          {pick && bars.length > 0 && (
            <BarChart
              bars={bars}
              title={report.title}
              caption={s.chartCaption
                .replace("{value}", report.columns[pick.value].name)
                .replace("{label}", pick.label >= 0 ? report.columns[pick.label].name : "")}
            />
          )}
          <TableWrap label={report.title}>
            <table className="report-table">
              <caption className="visually-hidden">{report.title}</caption>
              <thead>
                <tr>
                  {report.columns.map((c) => (
                    <th key={c.name} scope="col">
                      {c.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, i) => (
                  <tr key={i}>
                    {report.columns.map((c, j) => (
                      <td key={c.name} className={c.type === "integer" || c.type === "number" ? "num" : undefined}>
                        {cell(row[j], c.type, s.none)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
    </section>
  );
}
