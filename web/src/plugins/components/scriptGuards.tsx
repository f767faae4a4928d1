// script-guards' component (docs/plugins.md "script-guards",
// docs/plugins-lua.md): GuardScriptsSettings (tenant.admin.settings) lists
// the tenant's Lua guard scripts, creates and edits them (a syntax error is
// shown with its line), tries one on a sample context (the dry run: nothing
// recorded), enables, disables and deletes them, and edits the plugin's
// limits (instruction budget, memory, time).
import { useId, useState, type FormEvent } from "react";
import { call, type Answer } from "../../api/client";
import { EmptyState, ErrorBox, Loading, useAction, useLoad } from "../../ui";
import type { SlotComponentProps } from "../manager";
import { rawCall } from "../api";
import { useS } from "../strings";
import { ConfirmDelete, FieldErrors, SettingsForm } from "./common";

export type GuardScript = Answer<"/api/plugins/script-guards/scripts", "get">[number];
type TestResult = Answer<"/api/plugins/script-guards/scripts/{id}/test", "post">;

export const GUARDED_ACTIONS = ["Entry.Publish", "Entry.Delete", "Entry.Renew", "Translation.MarkUpToDate", "Hub.Delete"];

const EXAMPLE = `function guard(ctx)
  if ctx.action ~= "Entry.Publish" then return true end
  if #(ctx.properties.title or "") < 5 then
    return false, "title_too_short", "Titles need at least 5 characters."
  end
  return true
end
`;

function ActionSelect({ id, value, onChange, allowAny }: { id: string; value: string; onChange: (v: string) => void; allowAny: boolean }) {
  const s = useS();
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {allowAny && <option value="">{s.sg.everyAction}</option>}
      {GUARDED_ACTIONS.map((a) => (
        <option key={a} value={a}>
          {a}
        </option>
      ))}
    </select>
  );
}

function ScriptForm({ script, onDone, onCancel }: { script?: GuardScript; onDone: () => void; onCancel?: () => void }) {
  const s = useS();
  const id = useId();
  const [name, setName] = useState(script?.name ?? "");
  const [action, setAction] = useState(script?.action ?? "Entry.Publish");
  const [source, setSource] = useState(script?.source ?? EXAMPLE);
  const run = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { name: name.trim(), source, ...(action ? { action } : {}) };
    const ok = await run.run(async () => {
      // rawCall: a syntax error is a validation_failed problem naming `source`.
      if (script) await rawCall("PUT", `/api/plugins/script-guards/scripts/${encodeURIComponent(script.id)}`, body);
      else await rawCall("POST", "/api/plugins/script-guards/scripts", body);
      return true;
    });
    if (ok) {
      if (!script) {
        setName("");
        setSource(EXAMPLE);
      }
      onDone();
    }
  };
  return (
    <form className="script-form" onSubmit={submit} data-script-form={script ? "edit" : "new"}>
      <div className="field">
        <label htmlFor={`${id}-name`}>{s.sg.name}</label>
        <input id={`${id}-name`} name="scriptName" required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-action`}>{s.sg.action}</label>
        <ActionSelect id={`${id}-action`} value={action ?? ""} onChange={setAction} allowAny />
      </div>
      <div className="field">
        <label htmlFor={`${id}-source`}>{s.sg.source}</label>
        <textarea
          id={`${id}-source`}
          name="scriptSource"
          className="code"
          rows={10}
          spellCheck={false}
          value={source}
          onChange={(e) => setSource(e.target.value)}
        />
        <small>{s.sg.sourceHelp}</small>
      </div>
      <ErrorBox error={run.error} />
      <FieldErrors error={run.error} />
      <button type="submit" disabled={run.busy}>
        {script ? s.sg.saveScript : s.sg.create}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          {s.cancel}
        </button>
      )}
    </form>
  );
}

function TestPanel({ script }: { script: GuardScript }) {
  const s = useS();
  const id = useId();
  const [action, setAction] = useState(script.action ?? "Entry.Publish");
  const [properties, setProperties] = useState('{\n  "title": "Hi"\n}');
  const [result, setResult] = useState<TestResult | null>(null);
  const run = useAction();
  return (
    <div className="script-test" data-script-test={script.id}>
      <div className="field">
        <label htmlFor={`${id}-action`}>{s.sg.testAction}</label>
        <ActionSelect id={`${id}-action`} value={action} onChange={setAction} allowAny={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-props`}>{s.sg.testProperties}</label>
        <textarea id={`${id}-props`} className="code" rows={4} spellCheck={false} value={properties} onChange={(e) => setProperties(e.target.value)} />
      </div>
      <button
        type="button"
        disabled={run.busy}
        onClick={async () => {
          setResult(null);
          const r = await run.run(async () => {
            let props: unknown;
            try {
              props = properties.trim() ? JSON.parse(properties) : {};
            } catch (e) {
              throw new Error(`${s.sg.badJson}: ${e instanceof Error ? e.message : String(e)}`);
            }
            if (typeof props !== "object" || props === null || Array.isArray(props)) throw new Error(s.sg.propsObject);
            return call("post", "/api/plugins/script-guards/scripts/{id}/test", {
              params: { id: script.id },
              body: { context: { action, properties: props as Record<string, never> } },
            });
          });
          if (r) setResult(r);
        }}
      >
        {s.sg.runTest}
      </button>
      <ErrorBox error={run.error} />
      {result && (
        <div className="test-result" role="status" data-verdict={result.verdict}>
          <strong>{s.sg.verdict[result.verdict] ?? result.verdict}</strong>
          {result.reasonCode && <code> {result.reasonCode}</code>}
          {result.message && <p>{result.message}</p>}
          {result.error && (
            <p>
              {result.errorKind}: {result.error}
            </p>
          )}
          <small>
            {s.sg.instructions.replace("{n}", String(result.instructions)).replace("{ms}", String(result.durationMs))}
          </small>
        </div>
      )}
    </div>
  );
}

function ScriptRow({ script, onChanged }: { script: GuardScript; onChanged: () => void }) {
  const s = useS();
  const [mode, setMode] = useState<"none" | "edit" | "test">("none");
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  const toggle = () =>
    act.run(async () => {
      const path = script.isEnabled
        ? ("/api/plugins/script-guards/scripts/{id}/disable" as const)
        : ("/api/plugins/script-guards/scripts/{id}/enable" as const);
      await call("post", path, { params: { id: script.id } });
      onChanged();
    });
  return (
    <li className="script-row" data-script-name={script.name} data-enabled={script.isEnabled}>
      <div className="row-head">
        <strong>{script.name}</strong> <code>{script.action ?? s.sg.everyAction}</code>{" "}
        <span className={`badge ${script.isEnabled ? "badge-on" : "badge-off"}`}>{script.isEnabled ? s.enabled : s.disabled}</span>{" "}
        <small>v{script.version}</small>
      </div>
      <div className="row-actions">
        <button type="button" aria-expanded={mode === "test"} onClick={() => setMode(mode === "test" ? "none" : "test")}>
          {s.sg.test}
        </button>
        <button type="button" aria-expanded={mode === "edit"} onClick={() => setMode(mode === "edit" ? "none" : "edit")}>
          {s.edit}
        </button>
        <button type="button" disabled={act.busy} onClick={toggle}>
          {script.isEnabled ? s.disable : s.enable}
        </button>
        <button type="button" onClick={() => setConfirming(true)}>
          {s.delete}
        </button>
      </div>
      <ErrorBox error={act.error} />
      {mode === "test" && <TestPanel script={script} />}
      {mode === "edit" && (
        <ScriptForm
          script={script}
          onCancel={() => setMode("none")}
          onDone={() => {
            setMode("none");
            onChanged();
          }}
        />
      )}
      <ConfirmDelete
        open={confirming}
        title={s.sg.deleteTitle.replace("{name}", script.name)}
        explain={s.sg.deleteExplain}
        remove={() => call("delete", "/api/plugins/script-guards/scripts/{id}", { params: { id: script.id } })}
        close={() => setConfirming(false)}
        done={onChanged}
      />
    </li>
  );
}

export function GuardScriptsSettings({ pluginId, settings, context }: SlotComponentProps) {
  const s = useS();
  const [generation, setGeneration] = useState(0);
  const scripts = useLoad(() => call("get", "/api/plugins/script-guards/scripts"), [generation]);
  const reload = () => setGeneration((g) => g + 1);
  return (
    <section className="plugin-panel" aria-labelledby="guard-scripts">
      <h3 id="guard-scripts">{s.sg.title}</h3>
      <p>{s.sg.intro}</p>
      {scripts.loading ? (
        <Loading />
      ) : scripts.error ? (
        <ErrorBox error={scripts.error} />
      ) : scripts.data!.length === 0 ? (
        <EmptyState>{s.sg.empty}</EmptyState>
      ) : (
        <ul className="script-list">
          {scripts.data!.map((sc) => (
            <ScriptRow key={sc.id} script={sc} onChanged={reload} />
          ))}
        </ul>
      )}
      <details className="new-script">
        <summary>{s.sg.newScript}</summary>
        <ScriptForm onDone={reload} />
      </details>
      <details className="limits">
        <summary>{s.sg.limits}</summary>
        <SettingsForm
          pluginId={pluginId}
          settings={settings}
          onSaved={context.refresh}
          fields={[
            { name: "instructionBudget", kind: "int", label: s.sg.instructionBudget, help: s.sg.instructionBudgetHelp },
            { name: "memoryBytes", kind: "int", label: s.sg.memoryBytes, help: s.sg.memoryBytesHelp },
            { name: "timeoutMs", kind: "int", label: s.sg.timeoutMs, help: s.sg.timeoutMsHelp },
          ]}
        />
      </details>
    </section>
  );
}
