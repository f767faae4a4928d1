// safe-delete's components (docs/plugins.md "safe-delete"):
// SafeDeleteConfirm (entry.delete.confirm) and SafeDeleteSettings
// (tenant.admin.settings: how many days of usage count).
//
// The plugin's rule: deleting an entry AI applications used in the last
// `days` needs `DELETE /api/entries/{id}?confirm=true&reason=...`. The
// component holds the host's delete back (setConfirmable(pluginId, false))
// until the user has typed the entry's key and a reason, then releases it
// and hands the reason to the host (setDeleteReason), which deletes with
// confirm=true&reason=.
import { useEffect, useId, useState } from "react";
import { call } from "../../api/client";
import { ErrorBox, Loading, useLoad } from "../../ui";
import type { SlotComponentProps } from "../manager";
import { useS } from "../strings";
import { SettingsForm } from "./common";

export function safeDeleteReady(typedKey: string, entryKey: string, reason: string): boolean {
  return typedKey.trim() === entryKey && reason.trim().length > 0;
}

export function SafeDeleteConfirm({ pluginId, settings, context }: SlotComponentProps) {
  const s = useS();
  const entryId = context.entryId ?? "";
  const entry = useLoad(() => call("get", "/api/entries/{id}", { params: { id: entryId } }), [entryId]);
  const [typedKey, setTypedKey] = useState("");
  const [reason, setReason] = useState("");
  const keyId = useId();
  const reasonId = useId();
  const days = typeof settings.days === "number" ? settings.days : 30;
  const ready = !!entry.data && safeDeleteReady(typedKey, entry.data.key, reason);
  const { setConfirmable, setDeleteReason } = context;

  useEffect(() => {
    setConfirmable?.(pluginId, ready);
    if (ready) setDeleteReason?.(reason.trim());
  }, [ready, reason, pluginId, setConfirmable, setDeleteReason]);
  // Gone (the plugin disabled while the dialog is open): no longer holding it.
  useEffect(() => () => setConfirmable?.(pluginId, true), [pluginId, setConfirmable]);

  if (!entryId) return null;
  if (entry.loading) return <Loading />;
  if (entry.error) return <ErrorBox error={entry.error} />;
  return (
    <div className="safe-delete" data-ready={ready}>
      <p>{s.sd.explain.replace("{days}", String(days))}</p>
      <div className="field">
        <label htmlFor={keyId}>{s.sd.typeKey.replace("{key}", entry.data!.key)}</label>
        <input id={keyId} name="confirmKey" autoComplete="off" value={typedKey} onChange={(e) => setTypedKey(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={reasonId}>{s.sd.reason}</label>
        <textarea id={reasonId} name="deleteReason" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      {!ready && <p className="hint">{s.sd.held}</p>}
    </div>
  );
}

export function SafeDeleteSettings({ pluginId, settings, context }: SlotComponentProps) {
  const s = useS();
  return (
    <section className="plugin-panel" aria-labelledby="safe-delete-settings">
      <h3 id="safe-delete-settings">{s.sd.settingsTitle}</h3>
      <p>{s.sd.settingsIntro}</p>
      <SettingsForm
        pluginId={pluginId}
        settings={settings}
        onSaved={context.refresh}
        fields={[{ name: "days", kind: "int", label: s.sd.days, help: s.sd.daysHelp }]}
      />
    </section>
  );
}
