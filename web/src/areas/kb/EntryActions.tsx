// An entry's actions in the editor: publish (a plugin guard's denial shown
// with its message), the approval dialog (entry.approval.dialog slot), a
// review with the checklist of the template that applies, renew, ownership
// transfer and delete (confirmed; the entry.delete.confirm slot may hold it
// back). Each action refreshes the entry's status and expiry.
import { useCallback, useMemo, useRef, useState } from "react";
import { call } from "../../api/client";
import { Slot } from "../../plugins/Slot";
import { format } from "../../i18n";
import { Dialog, ErrorBox, Loading, StatusBadge, navigate, useAction, useLoad, useStableLoad } from "../../ui";
import {guardMessage, type EntryT } from "./api";
import { ExpiryBadge } from "./Badges";
import { useS } from "./strings";

type Open = null | "approval" | "review" | "renew" | "transfer" | "delete";

export function EntryActions({
  entry,
  dirty,
  saveFirst,
  onEntry,
  onNotice,
}: {
  entry: EntryT;
  dirty: boolean;
  saveFirst: () => Promise<EntryT | undefined>;
  onEntry: (e: EntryT) => void;
  onNotice: (text: string | null) => void;
}) {
  const s = useS();
  const entryId = entry.id;
  const hubKey = entry.hubKey;
  const [version, setVersion] = useState(0);
  const [open, setOpen] = useState<Open>(null);
  const refresh = useCallback(() => {
    setVersion((v) => v + 1);
    call("get", "/api/entries/{id}", { params: { id: entryId } }).then(
      (e) => !e.isTranslation && onEntry(e),
      () => undefined,
    );
  }, [entryId, onEntry]);
  const close = useCallback(() => setOpen(null), []);
  const slotContext = useMemo(() => ({ entryId, hubKey, refresh }), [entryId, hubKey, refresh]);
  // No `close`: the dialog has its own Close button (a contribution given
  // `close` would add a second one).
  const approvalContext = useMemo(() => ({ entryId, hubKey, refresh }), [entryId, hubKey, refresh]);
  const expiry = useStableLoad(() => call("get", "/api/entries/{entryId}/expiry-status", { params: { entryId } }), [entryId, version]);
  const publish = useAction();

  async function doPublish() {
    if (publish.busy) return;
    onNotice(null);
    if (dirty && !(await saveFirst())) return;
    const published = await publish.run(() => call("post", "/api/entries/{id}/publish", { params: { id: entryId } }));
    if (published) {
      onEntry(published);
      setVersion((v) => v + 1);
      onNotice(s.publishedNotice);
    }
  }

  const setRoot = useAction();
  const hub = useLoad(() => call("get", "/api/hubs/{key}", { params: { key: hubKey } }), [hubKey, version]);
  const isRoot = hub.data?.rootEntryId === entryId;
  async function doSetRoot() {
    onNotice(null);
    const done = await setRoot.run(() => call("put", "/api/entries/{id}/set-root", { params: { id: entryId } }));
    if (done) {
      setVersion((v) => v + 1);
      onNotice(s.rootSet);
    }
  }

  const denial = guardMessage(publish.error);
  return (
    <section className="entry-bar panel" aria-label={s.entryActions}>
      <div className="entry-state">
        <StatusBadge status={entry.status} />
        {isRoot && <span className="badge badge-root">{s.rootEntry}</span>}
        {expiry.data && (
          <ExpiryBadge
              status={expiry.data.status}
              expiryDate={expiry.data.expiryDate}
              isPaused={expiry.data.isPaused}
            />
        )}
      </div>
      <div className="toolbar entry-toolbar" role="toolbar" aria-label={s.entryActions}>
        {/* Not disabled while publishing: a disabled button loses the keyboard focus. */}
        <button type="button" className="primary" onClick={doPublish} aria-disabled={publish.busy || undefined}>
          {publish.busy ? s.publishing : entry.status === "Draft" ? s.publish : s.republish}
        </button>
        {/* Remounted on refresh: an approval decided in the dialog shows here. */}
        <Slot key={version} name="entry.toolbar.publish" context={slotContext} />
        <button type="button" onClick={() => setOpen("approval")}>
          {s.approval}
        </button>
        <button type="button" onClick={() => setOpen("review")}>
          {s.review}
        </button>
        <button type="button" onClick={() => setOpen("renew")}>
          {s.renew}
        </button>
        <button type="button" onClick={() => setOpen("transfer")}>
          {s.transfer}
        </button>
        {hub.data && !isRoot && (
          <button type="button" onClick={doSetRoot} disabled={setRoot.busy}>
            {s.makeRoot}
          </button>
        )}
        <button type="button" className="danger" onClick={() => setOpen("delete")}>
          {s.delete}
        </button>
      </div>
      {denial ? (
        <div className="error guard-denied" role="alert" data-guard-denied="true">
          <strong>{s.publishDenied}</strong>
          <p>{denial}</p>
        </div>
      ) : (
        <ErrorBox error={publish.error} />
      )}
      <ErrorBox error={setRoot.error} />
      <Dialog open={open === "approval"} title={s.approvalTitle} onClose={close}>
        <Slot
          name="entry.approval.dialog"
          context={approvalContext}
          fallback={<p>{s.noApproval}</p>}
        />
        <div className="actions">
          <button type="button" onClick={close}>
            {s.close}
          </button>
        </div>
      </Dialog>
      <Dialog open={open === "review"} title={s.reviewTitle} onClose={close}>
        {open === "review" && <ReviewForm entry={entry} close={close} onDone={(n) => (onNotice(n), refresh())} />}
      </Dialog>
      <Dialog open={open === "renew"} title={s.renewTitle} onClose={close}>
        {open === "renew" && <RenewForm entry={entry} close={close} onDone={(n) => (onNotice(n), refresh())} />}
      </Dialog>
      <Dialog open={open === "transfer"} title={s.transferTitle} onClose={close}>
        {open === "transfer" && <TransferForm entry={entry} close={close} onDone={(n) => (onNotice(n), refresh())} />}
      </Dialog>
      <Dialog open={open === "delete"} title={s.deleteTitle} onClose={close}>
        {open === "delete" && <DeleteForm entry={entry} close={close} />}
      </Dialog>
    </section>
  );
}

type ReviewType = "QuickReview" | "FullReview" | "Attestation";

function ReviewForm({ entry, close, onDone }: { entry: EntryT; close: () => void; onDone: (notice: string) => void }) {
  const s = useS();
  const entryId = entry.id;
  const started = useRef(Date.now());
  // The checklist of the template that applies (required by the server when
  // there is one), else the hub's own checklist, if any (optional).
  const setup = useLoad(async () => {
    const effective = await call("get", "/api/entries/{entryId}/effective-template", { params: { entryId } });
    const checklistId = effective.template?.checklistId;
    // The hub's and the tenant-wide checklists (there is no GET of one).
    const all = await call("get", "/api/review-checklists", { query: { hubId: entry.hubId } });
    if (checklistId) {
      // A template may name another hub's checklist: then look in all of them.
      const found = all.find((c) => c.id === checklistId) ?? (await call("get", "/api/review-checklists")).find((c) => c.id === checklistId);
      return { effective, checklist: found ?? null, required: true };
    }
    return { effective, checklist: all.find((c) => c.hubId === entry.hubId) ?? null, required: false };
  }, [entryId]);
  const [type, setType] = useState<ReviewType | "">("");
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const [notes, setNotes] = useState("");
  const action = useAction();
  const template = setup.data?.effective.template;
  const reviewType: ReviewType = type || template?.reviewType || "FullReview";
  const items = setup.data?.checklist?.items ?? [];
  const missing = items.filter((i) => i.required && !checked[i.id]).length;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = await action.run(() =>
      call("post", "/api/entries/{entryId}/review", {
        params: { entryId },
        body: {
          reviewType,
          timeSpentSeconds: Math.min(604800, Math.round((Date.now() - started.current) / 1000)),
          notes: notes || null,
          checklistJson: items.length ? JSON.stringify(Object.fromEntries(items.map((i) => [i.id, !!checked[i.id]]))) : null,
        },
      }),
    );
    if (result) {
      onDone(result.renewed ? format(s.reviewRenewed, { date: new Date(result.expiryDate).toLocaleDateString() }) : s.reviewRecorded);
      close();
    }
  }

  if (setup.loading) return <Loading />;
  return (
    <form className="stack" onSubmit={submit}>
      <ErrorBox error={setup.error ?? action.error} />
      <p className="hint">
        {template
          ? format(template.reviewRequired ? s.templateRequiresReview : s.templateNoReview, { name: template.name })
          : s.noTemplateReview}
      </p>
      <label>
        {s.reviewType}
        <select name="reviewType" value={reviewType} onChange={(e) => setType(e.target.value as ReviewType)}>
          {(["QuickReview", "Attestation", "FullReview"] as const).map((t) => (
            <option key={t} value={t}>
              {s.reviewTypes[t]}
            </option>
          ))}
        </select>
      </label>
      {setup.data?.checklist && (
        <fieldset className="checklist" data-checklist={setup.data.checklist.name}>
          <legend>{setup.data.checklist.name}</legend>
          {items.map((item) => (
            <label key={item.id} className="check">
              <input
                type="checkbox"
                name={`check-${item.id}`}
                checked={!!checked[item.id]}
                onChange={(e) => setChecked((c) => ({ ...c, [item.id]: e.target.checked }))}
              />{" "}
              {item.text}
              {item.required && <span className="required"> ({s.required})</span>}
            </label>
          ))}
        </fieldset>
      )}
      <label>
        {s.notes}
        <textarea name="notes" maxLength={4000} value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      {missing > 0 && setup.data?.required && <p className="hint">{format(s.checklistMissing, { n: missing })}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={action.busy || (missing > 0 && !!setup.data?.required)}>
          {s.submitReview}
        </button>
        <button type="button" onClick={close}>
          {s.cancel}
        </button>
      </div>
    </form>
  );
}

function RenewForm({ entry, close, onDone }: { entry: EntryT; close: () => void; onDone: (notice: string) => void }) {
  const s = useS();
  const entryId = entry.id;
  const setup = useLoad(
    () =>
      Promise.all([
        call("get", "/api/entries/{entryId}/renewal-eligibility", { params: { entryId } }),
        call("get", "/api/entries/{entryId}/expiry-config", { params: { entryId } }),
      ]),
    [entryId],
  );
  const [days, setDays] = useState<number | null>(null);
  const [notes, setNotes] = useState("");
  const action = useAction();
  const defaultDays = setup.data?.[1].expiryDays ?? 90;
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = await action.run(() =>
      call("post", "/api/entries/{entryId}/renew", {
        params: { entryId },
        body: { customExpiryDays: days ?? defaultDays, notes: notes || null },
      }),
    );
    if (result) {
      onDone(format(s.renewedNotice, { date: new Date(result.expiryDate).toLocaleDateString(), n: result.daysUntilExpiry }));
      close();
    }
  }
  if (setup.loading) return <Loading />;
  const blockers = setup.data?.[0].blockers ?? [];
  return (
    <form className="stack" onSubmit={submit}>
      <ErrorBox error={setup.error ?? action.error} />
      {blockers.length > 0 && (
        <div className="notice stale" role="status">
          <p>{s.renewBlocked}</p>
          <ul>
            {blockers.map((b) => (
              <li key={b}>{s.blockers[b] ?? b}</li>
            ))}
          </ul>
        </div>
      )}
      <label>
        {s.renewDays}
        <input
          name="renewDays"
          type="number"
          min={1}
          max={3650}
          required
          value={days ?? defaultDays}
          onChange={(e) => setDays(Number(e.target.value))}
        />
      </label>
      <label>
        {s.notes}
        <textarea name="renewNotes" maxLength={4000} value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={action.busy || blockers.length > 0}>
          {s.renew}
        </button>
        <button type="button" onClick={close}>
          {s.cancel}
        </button>
      </div>
    </form>
  );
}

function TransferForm({ entry, close, onDone }: { entry: EntryT; close: () => void; onDone: (notice: string) => void }) {
  const s = useS();
  const users = useLoad(() => call("get", "/api/users"), []);
  const [userId, setUserId] = useState("");
  const action = useAction();
  const others = useMemo(() => (users.data ?? []).filter((u) => u.id !== entry.ownerId), [users.data, entry.ownerId]);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = await action.run(() =>
      call("post", "/api/entries/{id}/transfer-ownership", { params: { id: entry.id }, body: { newOwnerId: userId } }),
    );
    if (result) {
      onDone(format(s.transferred, { name: others.find((u) => u.id === userId)?.displayName ?? userId }));
      close();
    }
  }
  return (
    <form className="stack" onSubmit={submit}>
      <ErrorBox error={users.error ?? action.error} />
      {users.loading && <Loading />}
      <p>
        {format(s.currentOwner, {
          name: users.data?.find((u) => u.id === entry.ownerId)?.displayName ?? entry.ownerId.slice(0, 8),
        })}
      </p>
      <label>
        {s.newOwner}
        <select name="newOwner" required value={userId} onChange={(e) => setUserId(e.target.value)}>
          <option value="">{s.pickUser}</option>
          {others.map((u) => (
            <option key={u.id} value={u.id}>
              {u.displayName} ({u.email})
            </option>
          ))}
        </select>
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={action.busy || !userId}>
          {s.transfer}
        </button>
        <button type="button" onClick={close}>
          {s.cancel}
        </button>
      </div>
    </form>
  );
}

export function DeleteForm({ entry, close }: { entry: EntryT; close: () => void }) {
  const s = useS();
  // What entry.delete.confirm contributions said, by plugin: the delete
  // waits while any holds it back.
  const [holds, setHolds] = useState<Record<string, boolean>>({});
  const setConfirmable = useCallback(
    (pluginId: string, ok: boolean) => setHolds((h) => (h[pluginId] === ok ? h : { ...h, [pluginId]: ok })),
    [],
  );
  const [force, setForce] = useState(false);
  const [reason, setReason] = useState("");
  // A contribution's reason for a confirmed delete (safe-delete's rule).
  const [pluginReason, setDeleteReason] = useState("");
  const action = useAction();
  // One context object while the dialog is open: a contribution may key its
  // effects on it.
  const slotContext = useMemo(
    () => ({ entryId: entry.id, hubKey: entry.hubKey, setConfirmable, setDeleteReason }),
    [entry.id, entry.hubKey, setConfirmable],
  );
  const held = Object.values(holds).some((ok) => !ok);
  const denial = guardMessage(action.error);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const ok = await action.run(() => call("delete", "/api/entries/{id}", {
        params: { id: entry.id },
        query: force ? { confirm: "true", reason } : pluginReason ? { confirm: "true", reason: pluginReason } : undefined,
      }).then(() => true));
    if (ok) {
      close();
      navigate(`/hubs/${encodeURIComponent(entry.hubKey)}?deleted=${encodeURIComponent(entry.title)}`);
    }
  }
  return (
    <form className="stack" onSubmit={submit}>
      <p>{format(s.deleteText, { title: entry.title })}</p>
      <Slot name="entry.delete.confirm" context={slotContext} />
      {denial ? (
        <div className="error guard-denied" role="alert" data-guard-denied="true">
          <strong>{s.deleteDenied}</strong>
          <p>{denial}</p>
          <label className="check">
            <input type="checkbox" name="force" checked={force} onChange={(e) => setForce(e.target.checked)} /> {s.deleteAnyway}
          </label>
          {force && (
            <label>
              {s.reason}
              <input name="reason" required value={reason} onChange={(e) => setReason(e.target.value)} />
            </label>
          )}
        </div>
      ) : (
        <ErrorBox error={action.error} />
      )}
      {held && <p className="hint">{s.deleteHeld}</p>}
      <div className="actions">
        <button type="submit" className="danger" disabled={action.busy || held}>
          {s.confirmDelete}
        </button>
        {/* The dialog opens with the focus on Cancel, so Enter alone never
            deletes. The attribute, not React's autoFocus: the native
            dialog's showModal() picks it. */}
        <button type="button" onClick={close} ref={(b) => b?.setAttribute("autofocus", "")}>
          {s.cancel}
        </button>
      </div>
    </form>
  );
}
