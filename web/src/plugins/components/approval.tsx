// approval-workflow's components (docs/plugins.md "approval-workflow"):
// ApprovalPublishButton (entry.toolbar.publish: the latest request's status
// and "Request approval"), ApprovalDialog (entry.approval.dialog: the
// entry's requests, approve or reject a pending one with a comment) and
// ApprovalWorkflowSettings (tenant.admin.settings: exempt hubs).
import { useId, useState } from "react";
import { call, type Answer } from "../../api/client";
import { ErrorBox, Loading, useAction, useLoad } from "../../ui";
import type { SlotComponentProps } from "../manager";
import { useS } from "../strings";
import { SettingsForm } from "./common";

export type Approval = Answer<"/api/plugins/approval-workflow/entries/{entryId}/approvals", "get">[number];

function useApprovals(entryId: string) {
  const [generation, setGeneration] = useState(0);
  const state = useLoad(
    () => call("get", "/api/plugins/approval-workflow/entries/{entryId}/approvals", { params: { entryId } }),
    [entryId, generation],
  );
  return { ...state, reload: () => setGeneration((g) => g + 1) };
}

function StatusLabel({ status }: { status: string }) {
  const s = useS();
  return (
    <span className={`badge approval-${status.toLowerCase()}`} data-approval-status={status}>
      {s.ap.status[status] ?? status}
    </span>
  );
}

export function ApprovalPublishButton({ context }: SlotComponentProps) {
  const s = useS();
  const entryId = context.entryId ?? "";
  const approvals = useApprovals(entryId);
  const action = useAction();
  const [comment, setComment] = useState("");
  const commentId = useId();
  if (!entryId) return null;
  if (approvals.loading) return <Loading />;
  if (approvals.error) return <ErrorBox error={approvals.error} />;
  const latest = approvals.data?.[0];
  const pending = latest?.status === "Pending";
  return (
    <div className="approval-publish">
      <span>
        {s.ap.approval}: {latest ? <StatusLabel status={latest.status} /> : <span data-approval-status="none">{s.ap.none}</span>}
      </span>
      {!pending && (
        <>
          <label htmlFor={commentId} className="visually-hidden">
            {s.ap.requestComment}
          </label>
          <input id={commentId} placeholder={s.ap.requestComment} value={comment} onChange={(e) => setComment(e.target.value)} />
          <button
            type="button"
            disabled={action.busy}
            onClick={async () => {
              const done = await action.run(() =>
                call("post", "/api/plugins/approval-workflow/entries/{entryId}/request", {
                  params: { entryId },
                  body: comment.trim() ? { comment: comment.trim() } : {},
                }),
              );
              if (done) {
                setComment("");
                approvals.reload();
                context.refresh?.();
              }
            }}
          >
            {s.ap.request}
          </button>
        </>
      )}
      {latest?.status === "Approved" && <span className="hint">{s.ap.approvedHint}</span>}
      <ErrorBox error={action.error} />
    </div>
  );
}

function ApprovalRow({ approval, me, onDecided }: { approval: Approval; me?: string; onDecided: () => void }) {
  const s = useS();
  const [comment, setComment] = useState("");
  const action = useAction();
  const id = useId();
  const decide = (verb: "approve" | "reject") =>
    action.run(async () => {
      const path =
        verb === "approve"
          ? ("/api/plugins/approval-workflow/approvals/{id}/approve" as const)
          : ("/api/plugins/approval-workflow/approvals/{id}/reject" as const);
      await call("post", path, { params: { id: approval.id }, body: comment.trim() ? { comment: comment.trim() } : ({} as { comment: string }) });
      onDecided();
    });
  const who = (user?: string | null) => (user && user === me ? s.ap.you : s.ap.someone);
  return (
    <li data-approval-id={approval.id} data-approval-status={approval.status} className="approval-row">
      <div>
        <StatusLabel status={approval.status} /> {s.ap.requestedBy} {who(approval.requestedBy)}, {new Date(approval.requestedAt).toLocaleString()}
      </div>
      {approval.requestComment && <blockquote>{approval.requestComment}</blockquote>}
      {approval.decidedAt && (
        <div>
          {s.ap.decidedBy} {who(approval.decidedBy)}, {new Date(approval.decidedAt).toLocaleString()}
          {approval.decisionComment && <blockquote>{approval.decisionComment}</blockquote>}
        </div>
      )}
      {approval.status === "Pending" && (
        <div className="approval-decide">
          <label htmlFor={id}>{s.ap.decisionComment}</label>
          <textarea id={id} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
          <button type="button" disabled={action.busy} onClick={() => decide("approve")}>
            {s.ap.approve}
          </button>
          <button
            type="button"
            disabled={action.busy}
            onClick={() => {
              if (!comment.trim()) action.run(() => Promise.reject(new Error(s.ap.rejectNeedsComment)));
              else decide("reject");
            }}
          >
            {s.ap.reject}
          </button>
          <ErrorBox error={action.error} />
        </div>
      )}
    </li>
  );
}

export function ApprovalDialog({ context }: SlotComponentProps) {
  const s = useS();
  const entryId = context.entryId ?? "";
  const approvals = useApprovals(entryId);
  const me = useLoad(() => call("get", "/api/users/me"), []);
  if (!entryId) return null;
  return (
    <div className="approval-dialog">
      {approvals.loading ? (
        <Loading />
      ) : approvals.error ? (
        <ErrorBox error={approvals.error} />
      ) : approvals.data!.length === 0 ? (
        <p>{s.ap.noRequests}</p>
      ) : (
        <ul className="approval-list">
          {approvals.data!.map((a) => (
            <ApprovalRow
              key={a.id}
              approval={a}
              me={me.data?.id}
              onDecided={() => {
                approvals.reload();
                context.refresh?.();
              }}
            />
          ))}
        </ul>
      )}
      {context.close && (
        <button type="button" onClick={context.close}>
          {s.close}
        </button>
      )}
    </div>
  );
}

export function ApprovalWorkflowSettings({ pluginId, settings, context }: SlotComponentProps) {
  const s = useS();
  const hubs = useLoad(() => call("get", "/api/hubs"), []);
  return (
    <section className="plugin-panel" aria-labelledby="approval-settings">
      <h3 id="approval-settings">{s.ap.settingsTitle}</h3>
      <p>{s.ap.settingsIntro}</p>
      {hubs.data && hubs.data.length > 0 && (
        <p className="hint">
          {s.ap.hubKeys}: {hubs.data.map((h) => h.key).join(", ")}
        </p>
      )}
      <SettingsForm
        pluginId={pluginId}
        settings={settings}
        onSaved={context.refresh}
        fields={[{ name: "exemptHubs", kind: "list", label: s.ap.exemptHubs, help: s.onePerLine }]}
      />
    </section>
  );
}
