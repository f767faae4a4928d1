// The configuration pages that are plain lists of a resource: each is the
// generic ResourcePage with its columns, fields and calls.
import { useState } from "react";
import { call, type Answer } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { format } from "../../i18n";
import { ErrorBox, Loading, useAction, useLoad } from "../../ui";
import type { FieldOption, FormValues } from "./fields";
import { AdminPage } from "./AdminPage";
import { GlossaryTransfer } from "./GlossaryTransfer";
import { ResourcePage, type ResourceConfig } from "./ResourceList";
import { useS, type AdminStrings } from "./strings";

export type Category = Answer<"/api/categories", "get">[number];
export type Tag = Answer<"/api/tags", "get">[number];
export type Heuristic = Answer<"/api/blocktypeheuristics", "get">[number];
export type StyleRule = Answer<"/api/admin/style-rules", "get">[number];
export type GlossaryItem = Answer<"/api/admin/glossaries", "get">[number];
export type Channel = Answer<"/api/notification-channels", "get">[number];
export type Checklist = Answer<"/api/review-checklists", "get">[number];
export type ExpiryTemplate = Answer<"/api/expiry-templates", "get">[number];
export type EntryTemplate = Answer<"/api/templates", "get">[number];
export type TenantLanguage = Answer<"/api/admin/languages", "get">[number];

// Bodies are built from the field descriptions, so their static type is the
// form's; the server validates them (and the form shows its answer).
const asBody = (b: Record<string, unknown>) => b as never;
const opts = (values: string[], labels?: Record<string, string>): FieldOption[] =>
  values.map((v) => ({ value: v, label: labels?.[v] ?? v }));
const yesNo = (s: AdminStrings, v: boolean) => (v ? s.yes : s.no);

function taxonomy(s: AdminStrings, which: "categories" | "tags"): ResourceConfig<Category> {
  const category = which === "categories";
  return {
    kind: category ? "category" : "tag",
    title: category ? s.categories : s.tags,
    intro: <p>{category ? s.categoriesIntro : s.tagsIntro}</p>,
    noun: category ? s.categoryNoun : s.tagNoun,
    empty: category ? s.categoriesEmpty : s.tagsEmpty,
    load: () => (category ? call("get", "/api/categories") : call("get", "/api/tags")),
    rowKey: (c) => c.id,
    rowName: (c) => c.name,
    columns: [
      { label: s.f.name, render: (c) => c.name },
      { label: s.f.description, render: (c) => c.description ?? "" },
      { label: s.usage, render: (c) => c.usageCount },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 100 },
      { name: "description", label: s.f.description, kind: "textarea", nullable: true, maxLength: 1000 },
    ],
    create: (body) =>
      category ? call("post", "/api/categories", { body: asBody(body) }) : call("post", "/api/tags", { body: asBody(body) }),
    update: (c, body) =>
      category
        ? call("put", "/api/categories/{id}", { params: { id: c.id }, body: asBody(body) })
        : call("put", "/api/tags/{id}", { params: { id: c.id }, body: asBody(body) }),
    remove: (c) =>
      category
        ? call("delete", "/api/categories/{id}", { params: { id: c.id } })
        : call("delete", "/api/tags/{id}", { params: { id: c.id } }),
    // In use (409): offer to take it off every hub and entry, then delete.
    forceRemove: {
      applies: (p) => p.code === (category ? "category_in_use" : "tag_in_use"),
      label: (c) => format(s.detachAndDelete, { n: c.usageCount }),
      run: (c) =>
        category
          ? call("delete", "/api/categories/{id}?detach=true" as "/api/categories/{id}", { params: { id: c.id } })
          : call("delete", "/api/tags/{id}?detach=true" as "/api/tags/{id}", { params: { id: c.id } }),
    },
  };
}

export function CategoriesPage({ me }: PageProps) {
  const s = useS();
  return <ResourcePage config={taxonomy(s, "categories")} me={me} />;
}

export function TagsPage({ me }: PageProps) {
  const s = useS();
  return <ResourcePage config={taxonomy(s, "tags")} me={me} />;
}

export function HeuristicsPage({ me }: PageProps) {
  const s = useS();
  const config: ResourceConfig<Heuristic> = {
    kind: "heuristic",
    title: s.heuristics,
    intro: <p>{s.heuristicsIntro}</p>,
    noun: s.heuristicNoun,
    empty: s.heuristicsEmpty,
    load: () => call("get", "/api/blocktypeheuristics"),
    rowKey: (h) => h.id,
    rowName: (h) => h.name,
    columns: [
      { label: s.f.name, render: (h) => h.name },
      { label: s.f.blockClass, render: (h) => <code>{h.blockClass}</code> },
      {
        label: s.matches,
        render: (h) =>
          [h.nodeTypes.join(", "), h.textPattern ? `${h.textPattern.match} "${h.textPattern.text}"` : ""]
            .filter(Boolean)
            .join(" · "),
      },
      { label: s.f.priority, render: (h) => h.priority },
      { label: s.f.translation, render: (h) => s.translationModes[h.translation] },
      { label: s.f.isEnabled, render: (h) => yesNo(s, h.isEnabled) },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 100 },
      { name: "blockClass", label: s.f.blockClass, kind: "text", required: true, maxLength: 50, help: s.blockClassHelp },
      { name: "nodeTypes", label: s.f.nodeTypes, kind: "list", help: s.nodeTypesHelp },
      { name: "patternMatch", label: s.f.patternMatch, kind: "select", nullable: true, options: opts(["Prefix", "Contains", "Exact"], s.matchModes) },
      { name: "patternText", label: s.f.patternText, kind: "text", required: true, maxLength: 200, showIf: (v) => v.patternMatch !== "" },
      { name: "patternCase", label: s.f.caseSensitive, kind: "checkbox", showIf: (v) => v.patternMatch !== "" },
      { name: "priority", label: s.f.priority, kind: "number", min: 0, max: 10000, initial: "100", help: s.priorityHelp },
      { name: "translation", label: s.f.translation, kind: "select", options: opts(["Translate", "Protect", "Skip"], s.translationModes) },
      { name: "isEnabled", label: s.f.isEnabled, kind: "checkbox", initial: true },
    ],
    decode: (h) => ({
      ...h,
      patternMatch: h.textPattern?.match ?? "",
      patternText: h.textPattern?.text ?? "",
      patternCase: h.textPattern?.caseSensitive ?? false,
    }),
    encode: (body, v: FormValues) => {
      const { patternMatch: _m, patternText: _t, patternCase: _c, ...rest } = body;
      return {
        ...rest,
        textPattern: v.patternMatch ? { match: v.patternMatch, text: v.patternText, caseSensitive: Boolean(v.patternCase) } : null,
      };
    },
    aliases: { "textPattern.text": "patternText", "textPattern.match": "patternMatch", textPattern: "patternMatch" },
    create: (body) => call("post", "/api/blocktypeheuristics", { body: asBody(body) }),
    update: (h, body) => call("put", "/api/blocktypeheuristics/{id}", { params: { id: h.id }, body: asBody(body) }),
    remove: (h) => call("delete", "/api/blocktypeheuristics/{id}", { params: { id: h.id } }),
  };
  return <ResourcePage config={config} me={me} />;
}

// The tenant's languages as options (style rules, glossaries).
function useLanguageOptions() {
  const languages = useLoad(() => call("get", "/api/admin/languages"), []);
  const options = languages.data?.map((l) => ({ value: l.code, label: `${l.displayName} (${l.code})` }));
  return { options, error: languages.error, loading: languages.loading };
}

export function StyleRulesPage({ me }: PageProps) {
  const s = useS();
  const languages = useLanguageOptions();
  if (!languages.options)
    return (
      <AdminPage title={s.styleRules} me={me}>
        <ErrorBox error={languages.error} />
        {languages.loading && <Loading />}
      </AdminPage>
    );
  const config: ResourceConfig<StyleRule> = {
    kind: "style-rule",
    title: s.styleRules,
    intro: <p>{s.styleRulesIntro}</p>,
    noun: s.styleRuleNoun,
    empty: s.styleRulesEmpty,
    load: () => call("get", "/api/admin/style-rules"),
    rowKey: (r) => r.id,
    rowName: (r) => r.name,
    columns: [
      { label: s.f.name, render: (r) => r.name },
      { label: s.f.language, render: (r) => r.language },
      { label: s.f.type, render: (r) => s.ruleTypes[r.type] },
      { label: s.f.term, render: (r) => (r.type === "Prefer" ? `${r.alternatives.join(", ")} → ${r.term}` : r.term) },
      { label: s.f.severity, render: (r) => s.severities[r.severity] },
      { label: s.f.isEnabled, render: (r) => yesNo(s, r.isEnabled) },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 100 },
      { name: "language", label: s.f.language, kind: "select", options: languages.options },
      { name: "type", label: s.f.type, kind: "select", options: opts(["Avoid", "Prefer"], s.ruleTypes), help: s.ruleTypeHelp },
      { name: "term", label: s.f.term, kind: "text", required: true, maxLength: 100 },
      { name: "alternatives", label: s.f.alternatives, kind: "list", required: true, showIf: (v) => v.type === "Prefer", help: s.alternativesHelp },
      { name: "suggestion", label: s.f.suggestion, kind: "text", nullable: true, maxLength: 100, showIf: (v) => v.type === "Avoid" },
      { name: "severity", label: s.f.severity, kind: "select", options: opts(["Info", "Warning", "Error"], s.severities), initial: "Warning" },
      { name: "message", label: s.f.message, kind: "textarea", nullable: true, maxLength: 500 },
      { name: "caseSensitive", label: s.f.caseSensitive, kind: "checkbox" },
      { name: "wholeWord", label: s.f.wholeWord, kind: "checkbox", initial: true },
      { name: "isEnabled", label: s.f.isEnabled, kind: "checkbox", initial: true },
    ],
    create: (body) => call("post", "/api/admin/style-rules", { body: asBody(body) }),
    update: (r, body) => call("put", "/api/admin/style-rules/{id}", { params: { id: r.id }, body: asBody(body) }),
    remove: (r) => call("delete", "/api/admin/style-rules/{id}", { params: { id: r.id } }),
  };
  return <ResourcePage config={config} me={me} />;
}

export function GlossariesPage({ me }: PageProps) {
  const s = useS();
  const languages = useLanguageOptions();
  if (!languages.options)
    return (
      <AdminPage title={s.glossaries} me={me}>
        <ErrorBox error={languages.error} />
        {languages.loading && <Loading />}
      </AdminPage>
    );
  const config: ResourceConfig<GlossaryItem> = {
    kind: "glossary",
    title: s.glossaries,
    intro: <p>{s.glossariesIntro}</p>,
    noun: s.glossaryNoun,
    empty: s.glossariesEmpty,
    load: () => call("get", "/api/admin/glossaries"),
    loadOne: (g) => call("get", "/api/admin/glossaries/{id}", { params: { id: g.id } }),
    rowKey: (g) => g.id,
    rowName: (g) => g.name,
    columns: [
      { label: s.f.name, render: (g) => g.name },
      { label: s.languagesPair, render: (g) => `${g.sourceLanguage} → ${g.targetLanguage}` },
      { label: s.f.terms, render: (g) => g.termCount },
      { label: s.f.description, render: (g) => g.description ?? "" },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 100 },
      { name: "sourceLanguage", label: s.f.sourceLanguage, kind: "select", options: languages.options },
      { name: "targetLanguage", label: s.f.targetLanguage, kind: "select", options: languages.options, initial: languages.options[1]?.value },
      { name: "description", label: s.f.description, kind: "textarea", nullable: true, maxLength: 1000 },
      {
        name: "terms",
        label: s.f.terms,
        kind: "rows",
        rowLabel: s.termRow,
        rows: [
          { name: "source", label: s.f.source, kind: "text", required: true, maxLength: 200 },
          { name: "target", label: s.f.target, kind: "text", required: true, maxLength: 200 },
          { name: "caseSensitive", label: s.f.caseSensitive, kind: "checkbox" },
        ],
      },
    ],
    create: (body) => call("post", "/api/admin/glossaries", { body: asBody(body) }),
    update: (g, body) => call("put", "/api/admin/glossaries/{id}", { params: { id: g.id }, body: asBody(body) }),
    remove: (g) => call("delete", "/api/admin/glossaries/{id}", { params: { id: g.id } }),
    rowActions: (g, refresh) => <GlossaryTransfer glossary={g} refresh={refresh} />,
  };
  return <ResourcePage config={config} me={me} />;
}

function TestChannelButton({ channel }: { channel: Channel }) {
  const s = useS();
  const action = useAction();
  const [sent, setSent] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        aria-label={`${s.sendTest}: ${channel.name}`}
        onClick={() =>
          action.run(async () => {
            await call("post", "/api/notification-channels/{id}/test", { params: { id: channel.id } });
            setSent(true);
          })
        }
      >
        {s.sendTest}
      </button>
      {sent && <span role="status">{s.testQueued}</span>}
      <ErrorBox error={action.error} />
    </>
  );
}

export function ChannelsPage({ me }: PageProps) {
  const s = useS();
  const events = ["entry.expiring_soon", "entry.warning", "entry.expired"];
  const config: ResourceConfig<Channel> = {
    kind: "channel",
    title: s.channels,
    intro: <p>{s.channelsIntro}</p>,
    noun: s.channelNoun,
    empty: s.channelsEmpty,
    load: () => call("get", "/api/notification-channels"),
    rowKey: (c) => c.id,
    rowName: (c) => c.name,
    columns: [
      { label: s.f.name, render: (c) => c.name },
      { label: s.f.type, render: (c) => s.channelTypes[c.type] },
      { label: s.f.events, render: (c) => c.events.map((e) => s.channelEvents[e] ?? e).join(", ") },
      { label: s.destination, render: (c) => c.config.recipients?.join(", ") ?? c.config.host ?? c.config.url ?? c.config.webhookUrl ?? "" },
      { label: s.f.isEnabled, render: (c) => yesNo(s, c.isEnabled) },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 200 },
      { name: "type", label: s.f.type, kind: "select", options: opts(["email", "slack", "teams", "webhook"], s.channelTypes) },
      { name: "events", label: s.f.events, kind: "multi", required: true, options: opts(events, s.channelEvents), initial: events },
      { name: "recipients", label: s.f.recipients, kind: "list", required: true, showIf: (v) => v.type === "email", help: s.recipientsHelp },
      { name: "notifyOwners", label: s.f.notifyOwners, kind: "checkbox", showIf: (v) => v.type === "email" },
      { name: "webhookUrl", label: s.f.webhookUrl, kind: "url", required: true, showIf: (v) => v.type === "slack" || v.type === "teams" },
      { name: "url", label: s.f.url, kind: "url", required: true, showIf: (v) => v.type === "webhook" },
      { name: "secret", label: s.f.signingSecret, kind: "text", nullable: true, maxLength: 200, showIf: (v) => v.type === "webhook", help: s.channelSecretHelp },
      { name: "isEnabled", label: s.f.isEnabled, kind: "checkbox", initial: true },
    ],
    decode: (c) => ({ ...c, ...c.config }),
    encode: (body) => {
      const { recipients, notifyOwners, webhookUrl, url, secret, ...rest } = body;
      const config: Record<string, unknown> = { recipients, notifyOwners, webhookUrl, url, secret };
      for (const k of Object.keys(config)) if (config[k] === undefined) delete config[k];
      return { ...rest, config };
    },
    aliases: {
      "config.recipients": "recipients",
      "config.notifyOwners": "notifyOwners",
      "config.webhookUrl": "webhookUrl",
      "config.url": "url",
      "config.secret": "secret",
    },
    create: (body) => call("post", "/api/notification-channels", { body: asBody(body) }),
    update: (c, body) => call("put", "/api/notification-channels/{id}", { params: { id: c.id }, body: asBody(body) }),
    remove: (c) => call("delete", "/api/notification-channels/{id}", { params: { id: c.id } }),
    rowActions: (c) => <TestChannelButton channel={c} />,
  };
  return <ResourcePage config={config} me={me} />;
}

export function ChecklistsPage({ me }: PageProps) {
  const s = useS();
  const config: ResourceConfig<Checklist> = {
    kind: "checklist",
    title: s.checklists,
    intro: <p>{s.checklistsIntro}</p>,
    noun: s.checklistNoun,
    empty: s.checklistsEmpty,
    load: () => call("get", "/api/review-checklists"),
    rowKey: (c) => c.id,
    rowName: (c) => c.name,
    columns: [
      { label: s.f.name, render: (c) => c.name },
      {
        label: s.f.items,
        render: (c) => (
          <ol className="compact">
            {c.items.map((i) => (
              <li key={i.id} data-item-text={i.text}>
                {i.text}
                {!i.required && <span className="muted"> ({s.optional})</span>}
              </li>
            ))}
          </ol>
        ),
      },
      { label: s.scope, render: (c) => (c.hubId ? s.oneHub : s.tenantWide) },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 200 },
      {
        name: "items",
        label: s.f.items,
        kind: "rows",
        required: true,
        rowLabel: s.itemRow,
        rows: [
          { name: "text", label: s.f.text, kind: "text", required: true, maxLength: 500 },
          { name: "required", label: s.f.required, kind: "checkbox", initial: true },
        ],
      },
    ],
    // Editing keeps the checklist's hub (the form does not move it).
    create: (body) => call("post", "/api/review-checklists", { body: asBody(body) }),
    update: (c, body) => call("put", "/api/review-checklists/{id}", { params: { id: c.id }, body: asBody({ ...body, hubId: c.hubId }) }),
    remove: (c) => call("delete", "/api/review-checklists/{id}", { params: { id: c.id } }),
  };
  return <ResourcePage config={config} me={me} />;
}

function MakeDefaultButton({ template, refresh }: { template: ExpiryTemplate; refresh: () => void }) {
  const s = useS();
  const action = useAction();
  if (template.isDefault) return null;
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        aria-label={`${s.makeDefault}: ${template.name}`}
        onClick={() =>
          action.run(async () => {
            await call("post", "/api/expiry-templates/{id}/set-default", { params: { id: template.id } });
            refresh();
          })
        }
      >
        {s.makeDefault}
      </button>
      <ErrorBox error={action.error} />
    </>
  );
}

export function ExpiryTemplatesPage({ me }: PageProps) {
  const s = useS();
  const checklists = useLoad(() => call("get", "/api/review-checklists"), []);
  if (!checklists.data)
    return (
      <AdminPage title={s.expiryTemplates} me={me}>
        <ErrorBox error={checklists.error} />
        {checklists.loading && <Loading />}
      </AdminPage>
    );
  const checklistName = (id: string | null) => checklists.data?.find((c) => c.id === id)?.name ?? "";
  const config: ResourceConfig<ExpiryTemplate> = {
    kind: "expiry-template",
    title: s.expiryTemplates,
    intro: <p>{s.expiryTemplatesIntro}</p>,
    noun: s.expiryTemplateNoun,
    empty: s.expiryTemplatesEmpty,
    load: () => call("get", "/api/expiry-templates"),
    rowKey: (t) => t.id,
    rowName: (t) => t.name,
    columns: [
      {
        label: s.f.name,
        render: (t) => (
          <>
            {t.name}
            {t.isDefault && <span className="badge">{s.default}</span>}
            {!t.isActive && <span className="badge">{s.inactive}</span>}
          </>
        ),
      },
      { label: s.periods, render: (t) => format3(s.periodsValue, t.expiryDays, t.warningDays, t.graceDays) },
      {
        label: s.review,
        render: (t) =>
          t.reviewRequired
            ? [t.reviewType ? s.reviewTypes[t.reviewType] : "", checklistName(t.checklistId)].filter(Boolean).join(" · ")
            : s.no,
      },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 200 },
      { name: "description", label: s.f.description, kind: "textarea", nullable: true, maxLength: 2000 },
      { name: "expiryDays", label: s.f.expiryDays, kind: "number", required: true, min: 1, max: 3650, initial: "365" },
      { name: "warningDays", label: s.f.warningDays, kind: "number", min: 0, max: 365, initial: "30", help: s.warningHelp },
      { name: "graceDays", label: s.f.graceDays, kind: "number", min: 0, max: 365, initial: "0" },
      { name: "reviewRequired", label: s.f.reviewRequired, kind: "checkbox" },
      { name: "reviewType", label: s.f.reviewType, kind: "select", required: true, showIf: (v) => v.reviewRequired === true, options: opts(["QuickReview", "FullReview", "Attestation"], s.reviewTypes) },
      {
        name: "checklistId",
        label: s.f.checklist,
        kind: "select",
        nullable: true,
        options: checklists.data.map((c) => ({ value: c.id, label: c.name })),
      },
      { name: "autoRenewOnAttestation", label: s.f.autoRenew, kind: "checkbox" },
      { name: "isActive", label: s.f.isActive, kind: "checkbox", initial: true },
    ],
    create: (body) => call("post", "/api/expiry-templates", { body: asBody(body) }),
    update: (t, body) => call("put", "/api/expiry-templates/{id}", { params: { id: t.id }, body: asBody(body) }),
    remove: (t) => call("delete", "/api/expiry-templates/{id}", { params: { id: t.id } }),
    rowActions: (t, refresh) => <MakeDefaultButton template={t} refresh={refresh} />,
  };
  return <ResourcePage config={config} me={me} />;
}

const format3 = (pattern: string, a: number, b: number, c: number) =>
  pattern.replace("{expiry}", String(a)).replace("{warning}", String(b)).replace("{grace}", String(c));

export function EntryTemplatesPage({ me }: PageProps) {
  const s = useS();
  const config: ResourceConfig<EntryTemplate> = {
    kind: "entry-template",
    title: s.entryTemplates,
    intro: <p>{s.entryTemplatesIntro}</p>,
    noun: s.entryTemplateNoun,
    empty: s.entryTemplatesEmpty,
    // The first 100 by name (the server's largest page).
    load: () => call("get", "/api/templates?pageSize=100" as "/api/templates"),
    loadOne: (t) => call("get", "/api/templates/{id}", { params: { id: t.id } }),
    rowKey: (t) => t.id,
    rowName: (t) => t.name,
    columns: [
      {
        label: s.f.name,
        render: (t) => (
          <>
            {t.name}
            {t.isOfficial && <span className="badge">{s.official}</span>}
          </>
        ),
      },
      { label: s.f.category, render: (t) => t.category ?? "" },
      { label: s.f.language, render: (t) => t.language },
      { label: s.uses, render: (t) => t.usageCount },
      { label: s.rating, render: (t) => (t.ratingCount ? `${t.averageRating} (${t.ratingCount})` : "") },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 200 },
      { name: "description", label: s.f.description, kind: "textarea", nullable: true, maxLength: 2000 },
      { name: "category", label: s.f.category, kind: "text", nullable: true, maxLength: 100 },
      { name: "language", label: s.f.language, kind: "text", initial: "en", maxLength: 16 },
      {
        name: "blocks",
        label: s.f.blocks,
        kind: "json",
        required: true,
        help: s.blocksHelp,
        initial: JSON.stringify([{ type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Summary" }] }, { type: "paragraph" }], null, 2),
      },
      { name: "isOfficial", label: s.f.isOfficial, kind: "checkbox" },
    ],
    create: (body) => call("post", "/api/templates", { body: asBody(body) }),
    update: (t, body) => call("put", "/api/templates/{id}", { params: { id: t.id }, body: asBody(body) }),
    remove: (t) => call("delete", "/api/templates/{id}", { params: { id: t.id } }),
  };
  return <ResourcePage config={config} me={me} />;
}

