// The content scanner's findings (docs/scanning.md): filters, dismiss and
// restore, the auto-scan setting and a rescan.
import { call } from "../../api/client";
import "./trust.css";
import { useId, useState } from "react";
import type { PageProps } from "../../shell/area";
import { EmptyState, ErrorBox, Loading, Progress, navigate, useAction, useLoad } from "../../ui";
import { withQuery, type Finding } from "./api";
import { ConfirmButton, TrustBadge, fmtTime, TableWrap } from "./common";
import { useS } from "./strings";

const filterNames = ["detector", "kind", "status", "sourceId", "connectorKey"] as const;
const detectors = [
  "aws_access_key",
  "github_token",
  "gitlab_token",
  "slack_token",
  "stripe_key",
  "google_api_key",
  "openai_api_key",
  "jwt",
  "private_key",
  "database_url_password",
  "credence_credential",
  "generic_secret_assignment",
  "email_address",
  "payment_card",
  "iban",
  "phone_number",
];

export function FindingsPage({ query }: PageProps) {
  const s = useS();
  const id = useId();
  const filters = Object.fromEntries(filterNames.map((f) => [f, query.get(f) ?? ""])) as Record<(typeof filterNames)[number], string>;
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const key = filterNames.map((f) => filters[f]).join("|");
  const findings = useLoad(
    () => call("get", "/trust-admin/findings", { query: { ...filters, after: cursor, limit: "50" } }),
    [key, cursor, generation],
  );
  const setFilter = (name: string, value: string) => {
    setCursor(undefined);
    navigate(withQuery("/trust/findings", { ...filters, [name]: value }));
  };
  return (
    <main className="trust-page">
      <h1>{s.findingsTitle}</h1>
      <p className="lead">{s.findingsLead}</p>
      <ScanSettings onRescanned={() => setGeneration((g) => g + 1)} />
      <form
        className="filters"
        aria-label={s.filters}
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          setCursor(undefined);
          navigate(withQuery("/trust/findings", Object.fromEntries(filterNames.map((f) => [f, String(data.get(f) ?? "")]))));
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-f-detector`}>{s.detector}</label>
          <select id={`${id}-f-detector`} name="detector" value={filters.detector} onChange={(e) => setFilter("detector", e.target.value)}>
            <option value="">{s.any}</option>
            {detectors.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-f-kind`}>{s.kind}</label>
          <select id={`${id}-f-kind`} name="kind" value={filters.kind} onChange={(e) => setFilter("kind", e.target.value)}>
            <option value="">{s.any}</option>
            <option value="secret">{s.findingKinds.secret}</option>
            <option value="personal_data">{s.findingKinds.personal_data}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-f-status`}>{s.status}</label>
          <select id={`${id}-f-status`} name="status" value={filters.status} onChange={(e) => setFilter("status", e.target.value)}>
            <option value="">{s.any}</option>
            <option value="active">{s.findingStatus.active}</option>
            <option value="dismissed">{s.findingStatus.dismissed}</option>
            <option value="resolved">{s.findingStatus.resolved}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-f-sourceId`}>{s.sourceId}</label>
          <input id={`${id}-f-sourceId`} name="sourceId" defaultValue={filters.sourceId} key={`s-${filters.sourceId}`} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-f-connectorKey`}>{s.connectorKey}</label>
          <input id={`${id}-f-connectorKey`} name="connectorKey" defaultValue={filters.connectorKey} key={`c-${filters.connectorKey}`} />
        </div>
        <button type="submit">{s.applyFilters}</button>
      </form>
      <ErrorBox error={findings.error} />
      {findings.loading && <Loading />}
      {findings.data && findings.data.findings.length === 0 && <EmptyState>{key.replace(/\|/g, "") ? s.noFindingsFiltered : s.noFindings}</EmptyState>}
      {findings.data && findings.data.findings.length > 0 && (
        <TableWrap label={s.findingsTitle}>
          <table aria-describedby={`${id}-caption`}>
            <caption id={`${id}-caption`} className="visually-hidden">
              {s.findingsTitle}
            </caption>
            <thead>
              <tr>
                <th scope="col">{s.detector}</th>
                <th scope="col">{s.source}</th>
                <th scope="col">{s.count}</th>
                <th scope="col">{s.lastSeen}</th>
                <th scope="col">{s.status}</th>
                <th scope="col">{s.actions}</th>
              </tr>
            </thead>
            <tbody>
              {findings.data.findings.map((f) => (
                <FindingRow key={f.id} finding={f} onChanged={() => setGeneration((g) => g + 1)} />
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {findings.data?.nextCursor && (
        <p>
          <button type="button" onClick={() => setCursor(findings.data?.nextCursor ?? undefined)}>
            {s.nextPage}
          </button>
        </p>
      )}
    </main>
  );
}

function FindingRow({ finding: f, onChanged }: { finding: Finding; onChanged: () => void }) {
  const s = useS();
  const id = useId();
  const [reason, setReason] = useState("");
  const restore = useAction();
  return (
    <tr data-finding-detector={f.detector} data-finding-status={f.status} data-finding-source={f.sourceId}>
      <td>
        <strong>{f.detector}</strong>
        <br />
        <span className="muted">
          {s.findingKinds[f.kind]} · {f.subType}
        </span>
      </td>
      <td>
        <code>{f.sourceId}</code>
        {f.language && <span className="muted"> ({f.language})</span>}
      </td>
      <td>{f.count}</td>
      <td>{fmtTime(f.lastSeenAt)}</td>
      <td>
        <TrustBadge value={f.status} label={s.findingStatus[f.status]} />
        {f.dismissReason && <div className="muted">{f.dismissReason}</div>}
      </td>
      <td>
        {f.status === "active" && (
          <ConfirmButton
            label={s.dismiss}
            title={s.dismissTitle}
            body={
              <div className="field">
                <p>{s.dismissBody}</p>
                <label htmlFor={`${id}-reason`}>{s.dismissReason}</label>
                <input id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} />
              </div>
            }
            confirmLabel={s.dismiss}
            onConfirm={async () => {
              await call("post", "/trust-admin/findings/{id}/dismiss", { params: { id: f.id }, body: { reason: reason || null } });
              onChanged();
            }}
          />
        )}
        {f.status === "dismissed" && (
          <button type="button" disabled={restore.busy} onClick={() => restore.run(() => call("post", "/trust-admin/findings/{id}/restore", { params: { id: f.id } })).then(onChanged)}>
            {s.restore}
          </button>
        )}
        <ErrorBox error={restore.error} />
      </td>
    </tr>
  );
}

function ScanSettings({ onRescanned }: { onRescanned: () => void }) {
  const s = useS();
  const [generation, setGeneration] = useState(0);
  const setting = useLoad(() => call("get", "/trust-admin/scanning"), [generation]);
  const toggle = useAction();
  const rescan = useAction();
  const [scanned, setScanned] = useState<number | null>(null);
  return (
    <section className="panel" aria-labelledby="scan-title">
      <h2 id="scan-title">{s.scanning}</h2>
      <ErrorBox error={setting.error} />
      {setting.data && (
        <>
          <label className="inline">
            <input
              type="checkbox"
              name="autoScan"
              checked={setting.data.autoScan}
              disabled={toggle.busy}
              onChange={(e) =>
                toggle.run(() => call("put", "/trust-admin/scanning", { body: { autoScan: e.target.checked } })).then(() => setGeneration((g) => g + 1))
              }
            />{" "}
            {s.autoScan}
          </label>
          <p className="hint">{setting.data.autoScan ? s.autoScanOn : s.autoScanOff}</p>
          <ErrorBox error={toggle.error} />
          <p className="actions">
            <ConfirmButton
              label={s.rescan}
              title={s.rescanTitle}
              body={<p>{s.rescanBody}</p>}
              confirmLabel={s.rescan}
              disabled={!setting.data.autoScan || rescan.busy}
              onConfirm={async () => {
                // The dialog closes at once; the page shows the progress.
                setScanned(null);
                void rescan.run(() => call("post", "/trust-admin/scanning/rescan")).then((r) => {
                  if (r) {
                    setScanned(r.entriesScanned);
                    onRescanned();
                  }
                });
              }}
            />
          </p>
          {rescan.busy && <Progress label={s.rescanning} />}
          <ErrorBox error={rescan.error} />
          {scanned !== null && <p role="status">{s.rescanned.replace("{n}", String(scanned))}</p>}
        </>
      )}
    </section>
  );
}
