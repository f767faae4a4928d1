// Trust policies per level, the context vocabulary and sensitivity facts
// (docs/trust-admin.md).
import "./trust.css";
import { useEffect, useId, useState } from "react";
import { call } from "../../api/client";
import { ErrorBox, Link, Loading, useAction, useLoad } from "../../ui";
import { type ContextVocabulary } from "./api";
import { FieldError, fmtTime, useResource } from "./common";
import { sensitivities } from "./policy";
import { PolicyEditor } from "./PolicyEditor";
import { useS } from "./strings";

export function PoliciesPage() {
  const s = useS();
  return (
    <main className="trust-page">
      <h1>{s.policiesTitle}</h1>
      <p className="lead">
        {s.policiesLead} <Link to="/trust/what-if">{s.tryWhatIf}</Link>
      </p>
      <nav aria-label={s.onThisPage} className="toc">
        <a href="#tenant-policy">{s.tenantPolicy}</a> · <a href="#hub-policy">{s.hubPolicy}</a> ·{" "}
        <a href="#source-policy">{s.sourcePolicy}</a> · <a href="#context">{s.contextTitle}</a> ·{" "}
        <a href="#sensitivity">{s.sensitivityTitle}</a>
      </nav>
      <TenantPolicy />
      <HubPolicy />
      <SourcePolicy />
      <ContextVocabularyForm />
      <SensitivityForm />
    </main>
  );
}

function TenantPolicy() {
  const s = useS();
  const level = useResource(() => call("get", "/trust-admin/policies/tenant"), []);
  return (
    <section id="tenant-policy" aria-labelledby="tenant-policy-title">
      <h2 id="tenant-policy-title">{s.tenantPolicy}</h2>
      <p className="hint">{s.tenantPolicyHint}</p>
      <ErrorBox error={level.error} />
      {level.loading && !level.data && <Loading />}
      {level.data && (
        <>
          <PolicyEditor
            name="tenant"
            policy={level.data.policy}
            effective={level.data.effective}
            onSave={async (policy) => {
              level.set(await call("put", "/trust-admin/policies/tenant", { body: policy }));
            }}
          />
          <p className="hint">
            {s.lastChanged}: {fmtTime(level.data.updatedAt)}
          </p>
        </>
      )}
    </section>
  );
}

function HubPolicy() {
  const s = useS();
  const id = useId();
  const hubs = useLoad(() => call("get", "/api/hubs"), []);
  const [hubKey, setHubKey] = useState("");
  const level = useResource(
    () => (hubKey ? call("get", "/trust-admin/policies/hubs/{hubKey}", { params: { hubKey } }) : Promise.resolve(undefined)),
    [hubKey],
  );
  return (
    <section id="hub-policy" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{s.hubPolicy}</h2>
      <ErrorBox error={hubs.error} />
      <div className="field">
        <label htmlFor={`${id}-hub`}>{s.hub}</label>
        <select id={`${id}-hub`} value={hubKey} onChange={(e) => setHubKey(e.target.value)}>
          <option value="">{s.chooseHub}</option>
          {hubs.data?.map((h) => (
            <option key={h.id} value={h.key}>
              {h.name}
            </option>
          ))}
        </select>
      </div>
      {hubs.data && hubs.data.length === 0 && <p className="hint">{s.noHubsForPolicy}</p>}
      <ErrorBox error={level.error} />
      {hubKey && level.loading && <Loading />}
      {level.data && (
        <PolicyEditor
          name="hub"
          policy={level.data.policy}
          effective={level.data.effective}
          onSave={async (policy) => {
            level.set(await call("put", "/trust-admin/policies/hubs/{hubKey}", { params: { hubKey }, body: policy }));
          }}
          onRemove={async () => {
            await call("delete", "/trust-admin/policies/hubs/{hubKey}", { params: { hubKey } });
            level.set(await call("get", "/trust-admin/policies/hubs/{hubKey}", { params: { hubKey } }));
          }}
        />
      )}
    </section>
  );
}

// A form naming a source (`entry:<id>` or `<connectorKey>:<externalId>`).
export function SourcePicker({ onPick, label }: { onPick: (sourceId: string) => void; label: string }) {
  const s = useS();
  const id = useId();
  const [text, setText] = useState("");
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        onPick(text.trim());
      }}
    >
      <label htmlFor={`${id}-source`}>{label}</label>
      <input
        id={`${id}-source`}
        name="sourceId"
        value={text}
        placeholder="entry:… / connector:external-id"
        onChange={(e) => setText(e.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <button type="submit">{s.open}</button>
      <span className="hint" id={`${id}-hint`}>
        {s.sourceIdHint}
      </span>
    </form>
  );
}

function SourcePolicy() {
  const s = useS();
  const [sourceId, setSourceId] = useState("");
  const level = useResource(
    () => (sourceId ? call("get", "/trust-admin/policies/sources", { query: { sourceId } }) : Promise.resolve(undefined)),
    [sourceId],
  );
  return (
    <section id="source-policy" aria-labelledby="source-policy-title">
      <h2 id="source-policy-title">{s.sourcePolicy}</h2>
      <SourcePicker onPick={setSourceId} label={s.sourceId} />
      <ErrorBox error={level.error} />
      {sourceId && level.loading && <Loading />}
      {level.data && (
        <PolicyEditor
          name="source"
          policy={level.data.policy}
          effective={level.data.effective}
          onSave={async (policy) => {
            level.set(await call("put", "/trust-admin/policies/sources", { query: { sourceId }, body: policy }));
          }}
          onRemove={async () => {
            await call("delete", "/trust-admin/policies/sources", { query: { sourceId } });
            level.set(await call("get", "/trust-admin/policies/sources", { query: { sourceId } }));
          }}
        />
      )}
    </section>
  );
}

const reviewTypes = ["QuickReview", "Attestation", "FullReview"] as const;

function lines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((l) => l.trim())
    .filter(Boolean);
}

function ContextVocabularyForm() {
  const s = useS();
  const id = useId();
  const [generation, setGeneration] = useState(0);
  const vocabulary = useLoad(() => call("get", "/trust-admin/context"), [generation]);
  const [customer, setCustomer] = useState("");
  const [internal, setInternal] = useState("");
  const [actions, setActions] = useState<{ action: string; review: string }[]>([]);
  const save = useAction();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const v = vocabulary.data as ContextVocabulary | undefined;
    if (!v) return;
    setCustomer(v.customerFacingChannels.join("\n"));
    setInternal(v.internalChannels.join("\n"));
    setActions(Object.entries((v.actionRequiresReview ?? {}) as Record<string, string>).map(([action, review]) => ({ action, review })));
  }, [vocabulary.data]);
  return (
    <section id="context" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{s.contextTitle}</h2>
      <p className="hint">{s.contextHint}</p>
      <ErrorBox error={vocabulary.error} />
      {vocabulary.loading && !vocabulary.data && <Loading />}
      {vocabulary.data && (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setSaved(false);
            const actionRequiresReview: Record<string, string> = {};
            for (const a of actions) if (a.action.trim()) actionRequiresReview[a.action.trim()] = a.review;
            await save.run(async () => {
              await call("put", "/trust-admin/context", {
                body: { customerFacingChannels: lines(customer), internalChannels: lines(internal), actionRequiresReview: actionRequiresReview as never },
              });
              setSaved(true);
              setGeneration((g) => g + 1);
            });
          }}
        >
          <div className="two-columns">
            <div className="field">
              <label htmlFor={`${id}-customer`}>{s.customerChannels}</label>
              <textarea
                id={`${id}-customer`}
                name="customerFacingChannels"
                rows={5}
                value={customer}
                onChange={(e) => setCustomer(e.target.value)}
                aria-describedby={`${id}-lines ${id}-customer-err`}
              />
              <FieldError error={save.error} field="customerFacingChannels" id={`${id}-customer-err`} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-internal`}>{s.internalChannels}</label>
              <textarea
                id={`${id}-internal`}
                name="internalChannels"
                rows={5}
                value={internal}
                onChange={(e) => setInternal(e.target.value)}
                aria-describedby={`${id}-lines ${id}-internal-err`}
              />
              <FieldError error={save.error} field="internalChannels" id={`${id}-internal-err`} />
            </div>
          </div>
          <p className="hint" id={`${id}-lines`}>
            {s.oneChannelPerLine}
          </p>
          <fieldset>
            <legend>{s.actionsNeedingReview}</legend>
            {actions.length === 0 && <p className="hint">{s.noActionsNeedReview}</p>}
            {actions.map((a, i) => (
              <div key={i} className="inline-form">
                <label>
                  {s.action}{" "}
                  <input
                    value={a.action}
                    onChange={(e) => setActions(actions.map((x, j) => (j === i ? { ...x, action: e.target.value } : x)))}
                  />
                </label>
                <label>
                  {s.reviewType}{" "}
                  <select value={a.review} onChange={(e) => setActions(actions.map((x, j) => (j === i ? { ...x, review: e.target.value } : x)))}>
                    {reviewTypes.map((r) => (
                      <option key={r} value={r}>
                        {s.reviewTypes[r]}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" onClick={() => setActions(actions.filter((_, j) => j !== i))}>
                  {s.remove} <span className="visually-hidden">{a.action}</span>
                </button>
                <FieldError error={save.error} field={`actionRequiresReview.${a.action}`} id={`${id}-action-${i}-err`} />
              </div>
            ))}
            <button type="button" onClick={() => setActions([...actions, { action: "", review: "FullReview" }])}>
              {s.addAction}
            </button>
          </fieldset>
          <ErrorBox error={save.error} />
          <p className="actions">
            <button type="submit" disabled={save.busy}>
              {save.busy ? s.working : s.saveContext}
            </button>
            {saved && <span role="status">{s.saved}</span>}
          </p>
        </form>
      )}
    </section>
  );
}

function SensitivityForm() {
  const s = useS();
  const id = useId();
  const [sourceId, setSourceId] = useState("");
  const [generation, setGeneration] = useState(0);
  const fact = useLoad(
    () => (sourceId ? call("get", "/trust-admin/sensitivity", { query: { sourceId } }) : Promise.resolve(undefined)),
    [sourceId, generation],
  );
  const [classification, setClassification] = useState<(typeof sensitivities)[number]>("Internal");
  const [secrets, setSecrets] = useState(false);
  const [personal, setPersonal] = useState(false);
  useEffect(() => {
    if (!fact.data) return;
    setClassification(fact.data.classification);
    setSecrets(fact.data.hasSecrets);
    setPersonal(fact.data.hasPersonalData);
  }, [fact.data]);
  const save = useAction();
  return (
    <section id="sensitivity" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{s.sensitivityTitle}</h2>
      <p className="hint">{s.sensitivityHint}</p>
      <SourcePicker onPick={setSourceId} label={s.sourceId} />
      <ErrorBox error={fact.error} />
      {sourceId && fact.loading && <Loading />}
      {fact.data && (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            await save.run(async () => {
              await call("put", "/trust-admin/sensitivity", {
                query: { sourceId },
                body: { classification, hasSecrets: secrets, hasPersonalData: personal },
              });
              setGeneration((g) => g + 1);
            });
          }}
        >
          <p>
            {s.setBy}: <strong>{fact.data.setBy === "human" ? s.setByHuman : fact.data.setBy === "scanner" ? s.setByScanner : s.setByNobody}</strong>{" "}
            {fact.data.updatedAt && `(${fmtTime(fact.data.updatedAt)})`}
          </p>
          {fact.data.scanner && (
            <p className="hint">
              {s.scannerSays}: {fact.data.scanner.secretFindings} {s.secretFindings}, {fact.data.scanner.personalDataFindings}{" "}
              {s.personalFindings}
              {fact.data.scanner.detectors.length > 0 && ` (${fact.data.scanner.detectors.join(", ")})`}
            </p>
          )}
          <div className="field">
            <label htmlFor={`${id}-class`}>{s.classification}</label>
            <select id={`${id}-class`} value={classification} onChange={(e) => setClassification(e.target.value as typeof classification)}>
              {sensitivities.map((v) => (
                <option key={v} value={v}>
                  {s.sensitivity[v]}
                </option>
              ))}
            </select>
            <FieldError error={save.error} field="classification" id={`${id}-class-err`} />
          </div>
          <label className="inline">
            <input type="checkbox" checked={secrets} onChange={(e) => setSecrets(e.target.checked)} /> {s.hasSecrets}
          </label>
          <label className="inline">
            <input type="checkbox" checked={personal} onChange={(e) => setPersonal(e.target.checked)} /> {s.hasPersonalData}
          </label>
          <ErrorBox error={save.error} />
          <p className="actions">
            <button type="submit" disabled={save.busy}>
              {s.saveSensitivity}
            </button>
            <button
              type="button"
              disabled={save.busy || !fact.data.setBy}
              onClick={() =>
                save.run(async () => {
                  await call("delete", "/trust-admin/sensitivity", { query: { sourceId } });
                  setGeneration((g) => g + 1);
                })
              }
            >
              {s.clearSensitivity}
            </button>
          </p>
        </form>
      )}
    </section>
  );
}
