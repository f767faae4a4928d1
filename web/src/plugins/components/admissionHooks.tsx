// admission-hooks' component (docs/plugins.md "admission-hooks",
// docs/admission-hooks.md): AdmissionHooksSettings (tenant.admin.settings)
// lists the tenant's hooks, adds one (its signing secret is shown once),
// enables, disables and deletes them.
import { useId, useState, type FormEvent } from "react";
import { call, type Answer } from "../../api/client";
import { CopyButton, EmptyState, ErrorBox, Loading, useAction, useLoad } from "../../ui";
import type { SlotComponentProps } from "../manager";
import { rawCall } from "../api";
import { useS } from "../strings";
import { ConfirmDelete, FieldErrors } from "./common";
import { GUARDED_ACTIONS } from "./scriptGuards";

export type AdmissionHook = Answer<"/api/plugins/admission-hooks/hooks", "get">[number];

function HookRow({ hook, onChanged }: { hook: AdmissionHook; onChanged: () => void }) {
  const s = useS();
  const act = useAction();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="hook-row" data-hook-name={hook.name} data-enabled={hook.isEnabled}>
      <div className="row-head">
        <strong>{hook.name}</strong> <code>{hook.action ?? s.sg.everyAction}</code>{" "}
        <span className={`badge ${hook.isEnabled ? "badge-on" : "badge-off"}`}>{hook.isEnabled ? s.enabled : s.disabled}</span>
        <div className="hook-url">
          {hook.url} · {hook.timeoutMs} ms
        </div>
      </div>
      <div className="row-actions">
        <button
          type="button"
          disabled={act.busy}
          onClick={() =>
            act.run(async () => {
              const path = hook.isEnabled
                ? ("/api/plugins/admission-hooks/hooks/{id}/disable" as const)
                : ("/api/plugins/admission-hooks/hooks/{id}/enable" as const);
              await call("post", path, { params: { id: hook.id } });
              onChanged();
            })
          }
        >
          {hook.isEnabled ? s.disable : s.enable}
        </button>
        <button type="button" onClick={() => setConfirming(true)}>
          {s.delete}
        </button>
      </div>
      <ErrorBox error={act.error} />
      <ConfirmDelete
        open={confirming}
        title={s.ah.deleteTitle.replace("{name}", hook.name)}
        explain={s.ah.deleteExplain}
        remove={() => call("delete", "/api/plugins/admission-hooks/hooks/{id}", { params: { id: hook.id } })}
        close={() => setConfirming(false)}
        done={onChanged}
      />
    </li>
  );
}

export function AdmissionHooksSettings(_props: SlotComponentProps) {
  const s = useS();
  const id = useId();
  const [generation, setGeneration] = useState(0);
  const hooks = useLoad(() => call("get", "/api/plugins/admission-hooks/hooks"), [generation]);
  const reload = () => setGeneration((g) => g + 1);
  const [name, setName] = useState("");
  const [action, setAction] = useState("");
  const [url, setUrl] = useState("");
  const [timeoutMs, setTimeoutMs] = useState("1000");
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    // rawCall: the problem's field errors (url_not_allowed, timeoutMs) are shown.
    const created = await create.run(() =>
      rawCall<{ secret?: string }>("POST", "/api/plugins/admission-hooks/hooks", {
        name: name.trim(),
        url: url.trim(),
        ...(action ? { action } : {}),
        ...(timeoutMs.trim() ? { timeoutMs: /^\d+$/.test(timeoutMs.trim()) ? Number(timeoutMs) : timeoutMs } : {}),
      }),
    );
    if (created) {
      setSecret(created.secret ?? null);
      setName("");
      setUrl("");
      reload();
    }
  };
  return (
    <section className="plugin-panel" aria-labelledby="admission-hooks">
      <h3 id="admission-hooks">{s.ah.title}</h3>
      <p>{s.ah.intro}</p>
      {hooks.loading ? (
        <Loading />
      ) : hooks.error ? (
        <ErrorBox error={hooks.error} />
      ) : hooks.data!.length === 0 ? (
        <EmptyState>{s.ah.empty}</EmptyState>
      ) : (
        <ul className="hook-list">
          {hooks.data!.map((h) => (
            <HookRow key={h.id} hook={h} onChanged={reload} />
          ))}
        </ul>
      )}
      {secret && (
        <div className="secret-once" role="status" data-hook-secret>
          <p>{s.ah.secretOnce}</p>
          <code>{secret}</code> <CopyButton text={secret} label={s.copy} copiedLabel={s.copied} />
        </div>
      )}
      <details className="new-hook">
        <summary>{s.ah.newHook}</summary>
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor={`${id}-name`}>{s.ah.name}</label>
            <input id={`${id}-name`} required value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-action`}>{s.sg.action}</label>
            <select id={`${id}-action`} value={action} onChange={(e) => setAction(e.target.value)}>
              <option value="">{s.sg.everyAction}</option>
              {GUARDED_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-url`}>{s.ah.url}</label>
            <input id={`${id}-url`} type="url" required placeholder="https://" value={url} onChange={(e) => setUrl(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-timeout`}>{s.ah.timeoutMs}</label>
            <input id={`${id}-timeout`} inputMode="numeric" value={timeoutMs} onChange={(e) => setTimeoutMs(e.target.value)} />
            <small>{s.ah.timeoutHelp}</small>
          </div>
          <ErrorBox error={create.error} />
          <FieldErrors error={create.error} />
          <button type="submit" disabled={create.busy}>
            {s.ah.create}
          </button>
        </form>
      </details>
    </section>
  );
}
