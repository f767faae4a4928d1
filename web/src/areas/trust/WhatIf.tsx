// Policy what-if (docs/what-if.md): compose policy, app policy and
// sensitivity changes one at a time (each level's editor starts from its
// policy today), choose a window and filters, and read what the changes
// would have done to the decisions recorded: the moves, per app and
// channel, the reasons that appear or go away, and examples linking to the
// ledger. Nothing is written.
import "./trust.css";
import { useEffect, useId, useState } from "react";
import { call } from "../../api/client";
import { EmptyState, ErrorBox, Link, Loading, Progress, useAction, useLoad } from "../../ui";
import { utcDay, type Effective, type Policy, type WhatIfResult, type WhatIfTarget } from "./api";
import { FieldError, fmtTime, TableWrap, TrustBadge } from "./common";
import { SourcePicker } from "./Policies";
import { sensitivities } from "./policy";
import { PolicyEditor } from "./PolicyEditor";
import { useS } from "./strings";
import { changeErrors, changeLines, movesText, whatIfRequestOf, whatIfTargets, type ComposedChange, type SettingWords } from "./whatIf";

type AppItem = { id: string; name: string; channel: string };

// A change's field as the form names it ("policy.maxReviewAgeDays": the
// policy field's label), else as the server does.
function fieldLabel(field: string, policyLabels: Record<string, string>, names: Record<string, string>): string {
  const policy = /^(?:policy|defaultPolicy)\.(\w+)$/.exec(field);
  if (policy && policyLabels[policy[1]]) return policyLabels[policy[1]];
  return names[field] ?? field;
}

export function WhatIfPage() {
  const s = useS();
  const id = useId();
  const apps = useLoad(() => call("get", "/trust-admin/apps", { query: { includeArchived: "true" } }), []);
  const appList: AppItem[] = apps.data?.items ?? [];
  const [changes, setChanges] = useState<ComposedChange[]>([]);
  const [from, setFrom] = useState(utcDay(new Date(), -29));
  const [to, setTo] = useState(utcDay(new Date()));
  const [appId, setAppId] = useState("");
  const [channel, setChannel] = useState("");
  const runner = useAction();
  const [result, setResult] = useState<WhatIfResult | null>(null);
  const words: SettingWords = {
    labels: s.policyLabels,
    sensitivity: s.sensitivity,
    yes: s.yes,
    no: s.no,
    noDisclaimer: s.noDisclaimer,
    policyRemoved: s.policyRemoved,
    factsRemoved: s.factsRemoved,
    hasSecrets: s.hasSecrets,
    hasPersonalData: s.hasPersonalData,
    classification: s.classification,
  };
  // A result or an error names the list it was run with.
  const edit = (list: ComposedChange[]) => {
    setChanges(list);
    setResult(null);
    runner.clear();
  };
  const run = async () => {
    setResult(null);
    const r = await runner.run(() => call("post", "/trust-admin/what-if", { body: whatIfRequestOf(changes, { from, to, appId, channel }) }));
    if (r) setResult(r);
  };
  return (
    <main className="trust-page what-if">
      <h1>{s.whatIfTitle}</h1>
      <p className="lead">{s.whatIfLead}</p>
      <Composer apps={appList} appsError={apps.error} onAdd={(c) => edit([...changes, c])} />

      <section aria-labelledby={`${id}-changes`} data-what-if-changes>
        <h2 id={`${id}-changes`}>{s.whatIfChangeList}</h2>
        {changes.length === 0 ? (
          <p className="hint">{s.whatIfNoChanges}</p>
        ) : (
          <>
            <p className="hint">{s.whatIfChangeListHint}</p>
            <ol className="change-list">
              {changes.map((c, i) => {
                const errors = changeErrors(runner.error, i);
                return (
                  <li key={i} data-change-target={c.change.target}>
                    <div className="change-head">
                      <strong>{s.whatIfTargets[c.change.target]}</strong>
                      {c.change.target !== "tenant-policy" && (
                        <>
                          {" · "}
                          <span className="change-name">{c.label}</span>
                        </>
                      )}
                      <button type="button" onClick={() => edit(changes.filter((_, j) => j !== i))}>
                        {s.remove}{" "}
                        <span className="visually-hidden">
                          {s.whatIfTargets[c.change.target]} {c.label}
                        </span>
                      </button>
                    </div>
                    <ul className="change-settings">
                      {changeLines(c.change, words).map((line, j) => (
                        <li key={j}>{line}</li>
                      ))}
                    </ul>
                    {errors.map((e) => (
                      <span key={e.field} className="field-error" role="alert">
                        {fieldLabel(e.field, s.policyLabels, s.whatIfFieldLabels)}: {e.message}
                      </span>
                    ))}
                  </li>
                );
              })}
            </ol>
          </>
        )}
      </section>

      <form
        className="panel"
        aria-labelledby={`${id}-window`}
        onSubmit={async (e) => {
          e.preventDefault();
          await run();
        }}
      >
        <h2 id={`${id}-window`}>{s.whatIfWindow}</h2>
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
            <select id={`${id}-app`} name="appId" value={appId} onChange={(e) => setAppId(e.target.value)} aria-describedby={`${id}-app-err`}>
              <option value="">{s.allCallers}</option>
              {appList.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
            <FieldError error={runner.error} field="appId" id={`${id}-app-err`} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-channel`}>{s.channelOptional}</label>
            <input
              id={`${id}-channel`}
              name="channel"
              list={`${id}-channels`}
              value={channel}
              onChange={(e) => setChannel(e.target.value)}
              aria-describedby={`${id}-channel-hint ${id}-channel-err`}
            />
            <datalist id={`${id}-channels`}>
              {[...new Set(appList.map((a) => a.channel))].map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
            <FieldError error={runner.error} field="channel" id={`${id}-channel-err`} />
          </div>
        </div>
        <p className="hint" id={`${id}-channel-hint`}>
          {s.windowHint} {s.channelFilterHint}
        </p>
        <p className="actions">
          <button type="submit" disabled={runner.busy || changes.length === 0}>
            {s.whatIfRun}
          </button>
        </p>
        {runner.busy && <Progress label={s.whatIfRunning} />}
        <ErrorBox error={runner.error} />
      </form>

      {result && <WhatIfResultView result={result} />}
    </main>
  );
}

// One change at a time: the target, what it names, and its policy fields
// (PolicyEditor, prefilled with the level's override today) or sensitivity
// facts; "Add to the changes" puts it on the list.
function Composer({ apps, appsError, onAdd }: { apps: AppItem[]; appsError: unknown; onAdd: (c: ComposedChange) => void }) {
  const s = useS();
  const id = useId();
  const [target, setTarget] = useState<WhatIfTarget>("hub-policy");
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-what-if-composer>
      <h2 id={`${id}-title`}>{s.whatIfCompose}</h2>
      <div className="field">
        <label htmlFor={`${id}-target`}>{s.whatIfTarget}</label>
        <select id={`${id}-target`} name="target" value={target} onChange={(e) => setTarget(e.target.value as WhatIfTarget)}>
          {whatIfTargets.map((t) => (
            <option key={t} value={t}>
              {s.whatIfTargets[t]}
            </option>
          ))}
        </select>
      </div>
      {target === "tenant-policy" && <TenantChange onAdd={onAdd} />}
      {target === "hub-policy" && <HubChange onAdd={onAdd} />}
      {target === "source-policy" && <SourceChange onAdd={onAdd} />}
      {target === "app-policy" && <AppChange apps={apps} appsError={appsError} onAdd={onAdd} />}
      {target === "sensitivity" && <SensitivityChange onAdd={onAdd} />}
    </section>
  );
}

type AddProps = { onAdd: (c: ComposedChange) => void };

function Editor({ policy, effective, onAdd }: { policy: Policy | undefined; effective?: Effective; onAdd: (p: Policy) => void }) {
  const s = useS();
  return (
    <>
      <p className="hint">{s.whatIfPrefillHint}</p>
      <PolicyEditor
        name="what-if"
        policy={policy}
        effective={effective}
        saveLabel={s.addChange}
        savedLabel={s.changeAdded}
        onSave={async (p) => onAdd(p)}
      />
    </>
  );
}

function TenantChange({ onAdd }: AddProps) {
  const s = useS();
  const level = useLoad(() => call("get", "/trust-admin/policies/tenant"), []);
  return (
    <>
      <ErrorBox error={level.error} />
      {level.loading && <Loading />}
      {level.data && (
        <Editor
          policy={level.data.policy}
          effective={level.data.effective}
          onAdd={(policy) => onAdd({ change: { target: "tenant-policy", policy }, label: s.tenantPolicy })}
        />
      )}
    </>
  );
}

function HubChange({ onAdd }: AddProps) {
  const s = useS();
  const id = useId();
  const hubs = useLoad(() => call("get", "/api/hubs"), []);
  const [hubKey, setHubKey] = useState("");
  const level = useLoad(
    () => (hubKey ? call("get", "/trust-admin/policies/hubs/{hubKey}", { params: { hubKey } }) : Promise.resolve(undefined)),
    [hubKey],
  );
  const hubName = hubs.data?.find((h) => h.key === hubKey)?.name ?? hubKey;
  return (
    <>
      <ErrorBox error={hubs.error} />
      <div className="field">
        <label htmlFor={`${id}-hub`}>{s.hub}</label>
        <select id={`${id}-hub`} name="hubKey" value={hubKey} onChange={(e) => setHubKey(e.target.value)}>
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
      {hubKey && level.data && (
        <Editor
          key={hubKey}
          policy={level.data.policy}
          effective={level.data.effective}
          onAdd={(policy) => onAdd({ change: { target: "hub-policy", hubKey, policy }, label: hubName })}
        />
      )}
    </>
  );
}

function SourceChange({ onAdd }: AddProps) {
  const s = useS();
  const [sourceId, setSourceId] = useState("");
  const level = useLoad(
    () => (sourceId ? call("get", "/trust-admin/policies/sources", { query: { sourceId } }) : Promise.resolve(undefined)),
    [sourceId],
  );
  return (
    <>
      <SourcePicker onPick={setSourceId} label={s.sourceId} />
      <ErrorBox error={level.error} />
      {sourceId && level.loading && <Loading />}
      {sourceId && level.data && (
        <Editor
          key={sourceId}
          policy={level.data.policy}
          effective={level.data.effective}
          onAdd={(policy) => onAdd({ change: { target: "source-policy", sourceId, policy }, label: sourceId })}
        />
      )}
    </>
  );
}

function AppChange({ apps, appsError, onAdd }: AddProps & { apps: AppItem[]; appsError: unknown }) {
  const s = useS();
  const id = useId();
  const [appId, setAppId] = useState("");
  const app = useLoad(() => (appId ? call("get", "/trust-admin/apps/{id}", { params: { id: appId } }) : Promise.resolve(undefined)), [appId]);
  return (
    <>
      <ErrorBox error={appsError} />
      <div className="field">
        <label htmlFor={`${id}-app`}>{s.app}</label>
        <select id={`${id}-app`} name="appId" value={appId} onChange={(e) => setAppId(e.target.value)}>
          <option value="">{s.chooseApp}</option>
          {apps.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      {apps.length === 0 && !appsError && <p className="hint">{s.noApps}</p>}
      <ErrorBox error={app.error} />
      {appId && app.loading && <Loading />}
      {appId && app.data && (
        <Editor
          key={appId}
          policy={(app.data.defaultPolicy ?? undefined) as Policy | undefined}
          onAdd={(defaultPolicy) => onAdd({ change: { target: "app-policy", appId, defaultPolicy }, label: app.data?.name ?? appId })}
        />
      )}
    </>
  );
}

function SensitivityChange({ onAdd }: AddProps) {
  const s = useS();
  const id = useId();
  const [sourceId, setSourceId] = useState("");
  const fact = useLoad(
    () => (sourceId ? call("get", "/trust-admin/sensitivity", { query: { sourceId } }) : Promise.resolve(undefined)),
    [sourceId],
  );
  const [classification, setClassification] = useState<(typeof sensitivities)[number]>("Internal");
  const [secrets, setSecrets] = useState(false);
  const [personal, setPersonal] = useState(false);
  const [added, setAdded] = useState(false);
  useEffect(() => {
    setAdded(false);
    if (!fact.data) return;
    setClassification(fact.data.classification);
    setSecrets(fact.data.hasSecrets);
    setPersonal(fact.data.hasPersonalData);
  }, [fact.data]);
  const add = (sensitivity: { classification: (typeof sensitivities)[number]; hasSecrets: boolean; hasPersonalData: boolean } | null) => {
    onAdd({ change: { target: "sensitivity", sourceId, sensitivity }, label: sourceId });
    setAdded(true);
  };
  return (
    <>
      <SourcePicker onPick={setSourceId} label={s.sourceId} />
      <ErrorBox error={fact.error} />
      {sourceId && fact.loading && <Loading />}
      {sourceId && fact.data && (
        <form
          data-what-if-sensitivity
          onSubmit={(e) => {
            e.preventDefault();
            add({ classification, hasSecrets: secrets, hasPersonalData: personal });
          }}
        >
          <p className="hint">{s.whatIfPrefillHint}</p>
          <div className="field">
            <label htmlFor={`${id}-class`}>{s.classification}</label>
            <select id={`${id}-class`} value={classification} onChange={(e) => setClassification(e.target.value as typeof classification)}>
              {sensitivities.map((v) => (
                <option key={v} value={v}>
                  {s.sensitivity[v]}
                </option>
              ))}
            </select>
          </div>
          <label className="inline">
            <input type="checkbox" checked={secrets} onChange={(e) => setSecrets(e.target.checked)} /> {s.hasSecrets}
          </label>
          <label className="inline">
            <input type="checkbox" checked={personal} onChange={(e) => setPersonal(e.target.checked)} /> {s.hasPersonalData}
          </label>
          <p className="actions">
            <button type="submit">{s.addChange}</button>
            <button type="button" onClick={() => add(null)}>
              {s.removeFactsChange}
            </button>
            {added && <span role="status">{s.changeAdded}</span>}
          </p>
        </form>
      )}
    </>
  );
}

function Verdict({ value }: { value: string }) {
  const s = useS();
  return <TrustBadge value={value} label={s.verdicts[value] ?? value} />;
}

function MovesTable({ title, moves, unit, kind }: { title: string; moves: WhatIfResult["moves"]; unit: string; kind: string }) {
  const s = useS();
  return (
    <TableWrap label={title}>
      <table className="moves-table" data-moves={kind}>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{s.before}</th>
            <th scope="col">
              <span aria-hidden="true">→ </span>
              {s.after}
            </th>
            <th scope="col">{unit}</th>
          </tr>
        </thead>
        <tbody>
          {moves.map((m) => (
            <tr key={`${m.from}-${m.to}`} data-move={`${m.from}-${m.to}`}>
              <td>
                <Verdict value={m.from} />
              </td>
              <td>
                <span aria-hidden="true">→ </span>
                <Verdict value={m.to} />
              </td>
              <td className="num" data-count>
                {m.decisions}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function ReasonsTable({ title, reasons, kind }: { title: string; reasons: WhatIfResult["reasonsAppearing"]; kind: string }) {
  const s = useS();
  return (
    <section aria-label={title}>
      <h3>{title}</h3>
      {reasons.length === 0 ? (
        <p className="hint">{s.none}</p>
      ) : (
        <TableWrap label={title}>
          <table data-reasons={kind}>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{s.reasonCode}</th>
                <th scope="col">{s.dimension}</th>
                <th scope="col">{s.sources}</th>
                <th scope="col">{s.decisions}</th>
              </tr>
            </thead>
            <tbody>
              {reasons.map((r) => (
                <tr key={r.code} data-reason-code={r.code}>
                  <td>
                    <code>{r.code}</code>
                  </td>
                  <td>{r.dimension}</td>
                  <td className="num">{r.sources}</td>
                  <td className="num">{r.decisions}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ""));

function WhatIfResultView({ result }: { result: WhatIfResult }) {
  const s = useS();
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} data-what-if-result data-changed={result.changed}>
      <h2 id={`${id}-title`} tabIndex={-1}>
        {s.whatIfResult}
      </h2>
      <p data-what-if-summary>
        <strong>
          {fill(s.whatIfSummary, { replayed: result.replayed, changed: result.changed, sourcesChanged: result.sourcesChanged, from: result.from, to: result.to })}
        </strong>
      </p>
      <p className={result.drifted > 0 ? "drift warning-text" : "drift hint"} data-drifted={result.drifted}>
        {result.drifted > 0 ? fill(s.whatIfDrifted, { drifted: result.drifted }) : s.whatIfNoDrift}
      </p>
      {result.changed === 0 && result.sourcesChanged === 0 ? (
        <EmptyState>{s.whatIfNothingMoves}</EmptyState>
      ) : (
        <>
          <div className="two-columns">
            {result.moves.length > 0 && <MovesTable title={s.movesTitle} moves={result.moves} unit={s.decisions} kind="decisions" />}
            {result.sourceMoves.length > 0 && <MovesTable title={s.sourceMovesTitle} moves={result.sourceMoves} unit={s.sources} kind="sources" />}
          </div>
        </>
      )}

      <h3>{s.groupsTitle}</h3>
      <TableWrap label={s.groupsTitle}>
        <table data-what-if-groups>
          <caption className="visually-hidden">{s.groupsTitle}</caption>
          <thead>
            <tr>
              <th scope="col">{s.app}</th>
              <th scope="col">{s.channel}</th>
              <th scope="col">{s.replayed}</th>
              <th scope="col">{s.changed}</th>
              <th scope="col">{s.moves}</th>
            </tr>
          </thead>
          <tbody>
            {result.groups.map((g) => (
              <tr key={`${g.appId ?? ""}/${g.channel}`} data-group-app={g.appName ?? ""} data-group-channel={g.channel}>
                <td>{g.appId ? <Link to={`/trust/apps/${g.appId}`}>{g.appName ?? g.appId}</Link> : <em>{s.noAppGroup}</em>}</td>
                <td>
                  <code>{g.channel}</code>
                </td>
                <td className="num">{g.replayed}</td>
                <td className="num">{g.changed}</td>
                <td>{g.moves.length ? movesText(g.moves, s.verdicts) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>

      <div className="two-columns">
        <ReasonsTable title={s.reasonsAppearing} reasons={result.reasonsAppearing} kind="appearing" />
        <ReasonsTable title={s.reasonsVanishing} reasons={result.reasonsVanishing} kind="vanishing" />
      </div>

      {result.examples.length > 0 && (
        <>
          <h3>{s.examplesTitle}</h3>
          <p className="hint">{s.examplesHint}</p>
          <TableWrap label={s.examplesTitle}>
            <table className="examples-table" data-what-if-examples>
              <caption className="visually-hidden">{s.examplesTitle}</caption>
              <thead>
                <tr>
                  <th scope="col">{s.decision}</th>
                  <th scope="col">{s.when}</th>
                  <th scope="col">{s.recorded}</th>
                  <th scope="col">{s.before}</th>
                  <th scope="col">{s.after}</th>
                  <th scope="col">{s.changedSources}</th>
                </tr>
              </thead>
              <tbody>
                {result.examples.map((e) => (
                  <tr key={e.decisionId} data-example={e.decisionId}>
                    <td>
                      <Link to={`/trust/ledger/${e.decisionId}`}>
                        <code className="hash">{e.decisionId}</code>
                      </Link>
                      <span className="hint">
                        <code>{e.channel}</code>
                      </span>
                    </td>
                    <td>{fmtTime(e.evaluatedAt)}</td>
                    <td>
                      <Verdict value={e.recorded} />
                    </td>
                    <td>
                      <Verdict value={e.before} />
                    </td>
                    <td>
                      <Verdict value={e.after} />
                    </td>
                    <td>
                      <ul className="plain example-sources">
                        {e.sources.map((src) => (
                          <li key={src.sourceId} data-source-id={src.sourceId}>
                            <span className="source-title">{src.title || src.sourceId}</span>{" "}
                            <span className="move">
                              <Verdict value={src.before} /> → <Verdict value={src.after} />
                            </span>
                            {src.reasonsAdded.length > 0 && (
                              <span className="hint">
                                + {s.reasonsAdded}: {src.reasonsAdded.map((c) => <code key={c}>{c} </code>)}
                              </span>
                            )}
                            {src.reasonsRemoved.length > 0 && (
                              <span className="hint">
                                − {s.reasonsRemoved}: {src.reasonsRemoved.map((c) => <code key={c}>{c} </code>)}
                              </span>
                            )}
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
      <p className="hint">{fill(s.whatIfDuration, { ms: result.durationMs })}</p>
    </section>
  );
}
