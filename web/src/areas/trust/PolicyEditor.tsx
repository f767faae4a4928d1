// A policy override's form: each field inherited or set at this level,
// with the effective value beside it; the server's field errors under
// their fields.
import { useEffect, useId, useState } from "react";
import { ErrorBox, useAction } from "../../ui";
import type { Effective, Policy } from "./api";
import { FieldError, TableWrap } from "./common";
import { booleanFields, dayFields, draftOf, effectiveText, policyOf, sensitivities, type PolicyDraft } from "./policy";
import { useS } from "./strings";

export function PolicyFields({
  draft,
  setDraft,
  effective,
  error,
}: {
  draft: PolicyDraft;
  setDraft: (d: PolicyDraft) => void;
  effective?: Effective;
  error: unknown;
}) {
  const s = useS();
  const id = useId();
  const eff = (f: keyof Effective) => effectiveText(effective, f, s.yes, s.no, s.none);
  const described = (f: string) => `${id}-${f}-err`;
  return (
    <TableWrap label={s.policiesTitle}>
      <table className="policy-table">
        <thead>
          <tr>
            <th scope="col">{s.policyField}</th>
            <th scope="col">{s.thisLevel}</th>
            {effective && <th scope="col">{s.effective}</th>}
          </tr>
        </thead>
        <tbody>
          {booleanFields.map((f) => (
            <tr key={f}>
              <th scope="row">
                <label htmlFor={`${id}-${f}`}>{s.policyLabels[f]}</label>
              </th>
              <td>
                <select
                  id={`${id}-${f}`}
                  name={f}
                  value={draft[f]}
                  aria-describedby={described(f)}
                  onChange={(e) => setDraft({ ...draft, [f]: e.target.value as PolicyDraft[typeof f] })}
                >
                  <option value="">{s.inherit}</option>
                  <option value="true">{s.yes}</option>
                  <option value="false">{s.no}</option>
                </select>
                <FieldError error={error} field={f} id={described(f)} />
              </td>
              {effective && <td data-effective={f}>{eff(f)}</td>}
            </tr>
          ))}
          <tr>
            <th scope="row">
              <label htmlFor={`${id}-maxSensitivityForAi`}>{s.policyLabels.maxSensitivityForAi}</label>
            </th>
            <td>
              <select
                id={`${id}-maxSensitivityForAi`}
                name="maxSensitivityForAi"
                value={draft.maxSensitivityForAi}
                aria-describedby={described("maxSensitivityForAi")}
                onChange={(e) => setDraft({ ...draft, maxSensitivityForAi: e.target.value as PolicyDraft["maxSensitivityForAi"] })}
              >
                <option value="">{s.inherit}</option>
                {sensitivities.map((v) => (
                  <option key={v} value={v}>
                    {s.sensitivity[v]}
                  </option>
                ))}
              </select>
              <FieldError error={error} field="maxSensitivityForAi" id={described("maxSensitivityForAi")} />
            </td>
            {effective && <td>{eff("maxSensitivityForAi")}</td>}
          </tr>
          {dayFields.map((f) => (
            <tr key={f}>
              <th scope="row">
                <label htmlFor={`${id}-${f}`}>{s.policyLabels[f]}</label>
              </th>
              <td>
                <input
                  id={`${id}-${f}`}
                  name={f}
                  inputMode="numeric"
                  placeholder={s.inherit}
                  value={draft[f]}
                  aria-describedby={described(f)}
                  aria-invalid={Boolean(errorOf(error, f))}
                  onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
                />
                <FieldError error={error} field={f} id={described(f)} />
              </td>
              {effective && <td>{eff(f)}</td>}
            </tr>
          ))}
          <tr>
            <th scope="row">
              <label htmlFor={`${id}-disclaimer`}>{s.policyLabels.disclaimerText}</label>
            </th>
            <td>
              <select
                id={`${id}-disclaimer`}
                name="disclaimer"
                value={draft.disclaimer}
                onChange={(e) => setDraft({ ...draft, disclaimer: e.target.value as PolicyDraft["disclaimer"] })}
              >
                <option value="">{s.inherit}</option>
                <option value="none">{s.noDisclaimer}</option>
                <option value="text">{s.disclaimerSet}</option>
              </select>
              {draft.disclaimer === "text" && (
                <textarea
                  aria-label={s.disclaimerTextLabel}
                  name="disclaimerText"
                  value={draft.disclaimerText}
                  aria-describedby={described("disclaimerText")}
                  onChange={(e) => setDraft({ ...draft, disclaimerText: e.target.value })}
                />
              )}
              <FieldError error={error} field="disclaimerText" id={described("disclaimerText")} />
            </td>
            {effective && <td>{eff("disclaimerText")}</td>}
          </tr>
        </tbody>
      </table>
    </TableWrap>
  );
}

function errorOf(error: unknown, field: string): boolean {
  return Boolean(error && typeof error === "object" && "errors" in error && (error as { errors: { field: string }[] }).errors.some((e) => e.field === field));
}

// A level's override with Save (PUT) and, when the level can be removed,
// Remove (DELETE). `saveLabel` and `savedLabel` name what Save does when it
// does not publish (the what-if page adds the override to its changes).
export function PolicyEditor({
  policy,
  effective,
  onSave,
  onRemove,
  name,
  saveLabel,
  savedLabel,
}: {
  policy: Policy | undefined;
  effective?: Effective;
  onSave: (p: Policy) => Promise<unknown>;
  onRemove?: () => Promise<unknown>;
  name: string;
  saveLabel?: string;
  savedLabel?: string;
}) {
  const s = useS();
  const [draft, setDraft] = useState(() => draftOf(policy));
  useEffect(() => setDraft(draftOf(policy)), [policy]);
  const save = useAction();
  const [saved, setSaved] = useState(false);
  return (
    <form
      className="policy-editor"
      data-policy-editor={name}
      onSubmit={async (e) => {
        e.preventDefault();
        setSaved(false);
        await save.run(async () => {
          await onSave(policyOf(draft));
          setSaved(true);
        });
      }}
    >
      <PolicyFields draft={draft} setDraft={setDraft} effective={effective} error={save.error} />
      <ErrorBox error={save.error} />
      <p className="actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? s.working : (saveLabel ?? s.savePolicy)}
        </button>
        {onRemove && (
          <button
            type="button"
            disabled={save.busy}
            onClick={() =>
              save.run(async () => {
                await onRemove();
                setSaved(true);
              })
            }
          >
            {s.removeOverride}
          </button>
        )}
        {saved && <span role="status">{savedLabel ?? s.saved}</span>}
      </p>
    </form>
  );
}
