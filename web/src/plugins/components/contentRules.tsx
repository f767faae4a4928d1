// content-rules' components (docs/plugins.md "content-rules"):
// ContentRulesSettings (tenant.admin.settings: the tenant's global rules,
// the plugin's settings), HubContentRulesSettings (hub.admin.settings: the
// hub's rules, GET/PUT /api/hubs/{hubKey}/rules) and ContentRulesStatus
// (entry.sidebar.status: the entry as saved against the rules that apply).
import { call } from "../../api/client";
import { ErrorBox, Loading, useLoad } from "../../ui";
import type { SlotComponentProps } from "../manager";
import { useS } from "../strings";
import { SettingsForm, type FieldDef } from "./common";
import { checkRules, mergeRules, type Rules } from "./contentRulesCheck";

function useRuleFields(): FieldDef[] {
  const s = useS();
  return [
    { name: "requiredHeadings", kind: "list", label: s.cr.requiredHeadings, help: s.onePerLine },
    { name: "forbiddenTerms", kind: "list", label: s.cr.forbiddenTerms, help: s.onePerLine },
    { name: "maxTitleLength", kind: "int", label: s.cr.maxTitleLength, help: s.zeroNoLimit },
    { name: "maxTextLength", kind: "int", label: s.cr.maxTextLength, help: s.zeroNoLimit },
    { name: "requiredTranslations", kind: "list", label: s.cr.requiredTranslations, help: s.cr.languagesHelp },
    { name: "noSecretFindings", kind: "bool", label: s.cr.noSecretFindings },
    { name: "enforceStyleRules", kind: "bool", label: s.cr.enforceStyleRules },
  ];
}

export function ContentRulesSettings({ pluginId, settings, context }: SlotComponentProps) {
  const s = useS();
  const fields = useRuleFields();
  return (
    <section className="plugin-panel" aria-labelledby="content-rules-settings">
      <h3 id="content-rules-settings">{s.cr.title}</h3>
      <p>{s.cr.intro}</p>
      <SettingsForm pluginId={pluginId} fields={fields} settings={settings} onSaved={context.refresh} />
    </section>
  );
}

export function HubContentRulesSettings({ pluginId, context }: SlotComponentProps) {
  const s = useS();
  const fields = useRuleFields();
  const hubKey = context.hubKey ?? "";
  const rules = useLoad(() => call("get", "/api/hubs/{hubKey}/rules", { params: { hubKey } }), [hubKey]);
  if (!hubKey) return null;
  return (
    <section className="plugin-panel" aria-labelledby="hub-content-rules">
      <h3 id="hub-content-rules">{s.cr.hubTitle}</h3>
      <p>{s.cr.hubIntro}</p>
      {rules.loading ? (
        <Loading />
      ) : rules.error ? (
        <ErrorBox error={rules.error} />
      ) : (
        <SettingsForm
          key={rules.data?.updatedAt ?? "new"}
          pluginId={pluginId}
          fields={[{ name: "isEnabled", kind: "bool", label: s.cr.hubEnabled }, ...fields]}
          settings={{ ...((rules.data?.rules ?? {}) as Record<string, unknown>), isEnabled: rules.data?.isEnabled ?? false }}
          save={async (value) => {
            const { isEnabled, ...rest } = value;
            await call("put", "/api/hubs/{hubKey}/rules", {
              params: { hubKey },
              body: { isEnabled: isEnabled === true, rulesJson: JSON.stringify(rest) },
            });
            context.refresh?.();
          }}
        />
      )}
    </section>
  );
}

export function ContentRulesStatus({ settings, context }: SlotComponentProps) {
  const s = useS();
  const entryId = context.entryId ?? "";
  const state = useLoad(async () => {
    const entry = await call("get", "/api/entries/{id}", { params: { id: entryId } });
    const [hub, translations] = await Promise.all([
      call("get", "/api/hubs/{hubKey}/rules", { params: { hubKey: entry.hubKey } }).catch(() => null),
      call("get", "/api/entries/{entryId}/translations", { params: { entryId } }),
    ]);
    const hubRules = hub && hub.isEnabled ? ((hub.rules ?? {}) as Rules) : null;
    return { entry, results: checkRules(entry, mergeRules(settings as Rules, hubRules), translations) };
  }, [entryId, JSON.stringify(settings)]);
  if (!entryId) return null;
  return (
    <section className="plugin-panel content-rules-status" aria-labelledby="content-rules-status">
      <h3 id="content-rules-status">{s.cr.statusTitle}</h3>
      {state.loading ? (
        <Loading />
      ) : state.error ? (
        <ErrorBox error={state.error} />
      ) : state.data!.results.length === 0 ? (
        <p>{s.cr.noRules}</p>
      ) : (
        <ul className="rule-results">
          {state.data!.results.map((r) => (
            <li key={r.rule} data-rule={r.rule} data-ok={r.ok}>
              <span className={r.ok ? "rule-ok" : "rule-fail"}>{r.ok ? s.cr.pass : s.cr.fail}</span> {s.cr.rules[r.rule]}
              {r.detail && <span className="rule-detail"> — {r.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="hint">{s.cr.serverChecks}</p>
    </section>
  );
}
