// The entry reader: the original or one of its translations (a language
// switcher; GET /api/entries/{id}?language= puts "[Content removed]" where
// the original dropped a block), each stale block of a translation marked
// with what changed in its source (a word diff of the text it was
// translated from, originalTextThen, and the text now), and a sidebar:
// status, expiry, owner, last review, how an AI application would see the
// entry now (POST /api/trust/preview: what evaluate would answer, recorded
// nowhere) and the entry.sidebar.status plugin slot.
import { useCallback, useMemo, useState } from "react";
import { call, Problem } from "../../api/client";
import { loadEntry, loadOriginal } from "../../api/entries";
import type { PageProps } from "../../shell/area";
import { DocumentView, type StaleDetail } from "../../editor/Document";
import { Slot } from "../../plugins/Slot";
import { format } from "../../i18n";
import { ErrorBox, Link, Loading, StatusBadge, navigate, useLoad, useStableLoad } from "../../ui";
import type { EntryT, TrustDecisionT } from "./api";
import { ExpiryBadge } from "./Badges";
import { useS } from "./strings";
import "./kb.css";

export function ReaderPage({ params, query }: PageProps) {
  const entryId = params.entryId;
  const language = query.get("lang");
  const s = useS();
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  // The original (its sidebar, and the page unless a translation is asked for).
  const meta = useStableLoad(() => loadOriginal(entryId), [entryId, version]);
  const original = meta.data?.originalLanguage;
  const shown = language && original && language !== original ? language : null;
  const translated = useStableLoad(
    () => (shown ? loadEntry(entryId, shown) : Promise.resolve(null)),
    [entryId, shown, version],
  );
  const view = shown ? translated : meta;
  const translations = useStableLoad(() => call("get", "/api/entries/{entryId}/translations", { params: { entryId } }), [entryId, version]);
  const staleBlocks = useLoad(
    () =>
      shown
        ? call("get", "/api/entries/{entryId}/translations/{language}/stale-blocks", { params: { entryId, language: shown } }).catch(
            (e: unknown) => {
              if (e instanceof Problem && e.status === 404) return []; // no translation in that language
              throw e;
            },
          )
        : Promise.resolve(null),
    [entryId, shown, version],
  );

  const staleDetails = useMemo(() => {
    const map = new Map<string, StaleDetail>();
    for (const b of staleBlocks.data ?? []) map.set(b.blockId, { before: b.originalTextThen, after: b.originalText });
    return map;
  }, [staleBlocks.data]);

  const e = meta.data;
  const v = view.data;
  const summary = v?.isTranslation ? v.translation : null;
  const switchTo = (lang: string) => navigate(`/entries/${entryId}${lang === original ? "" : `?lang=${encodeURIComponent(lang)}`}`);

  return (
    <main className="kb reader">
      {e && (
        <p>
          <Link to={`/hubs/${encodeURIComponent(e.hubKey)}`}>← {s.backToHub}</Link>
        </p>
      )}
      <ErrorBox error={meta.error ?? view.error ?? translations.error ?? staleBlocks.error} />
      {(meta.loading || view.loading) && <Loading />}
      {e && (
        <div className="reader-layout">
          <div className="reader-main">
            <header className="entry-header">
              <h1>{v?.title ?? e.title}</h1>
              <StatusBadge status={e.status} />
              <label className="language-switcher">
                {s.language}{" "}
                <select name="language" value={shown ?? e.originalLanguage} onChange={(ev) => switchTo(ev.target.value)}>
                  <option value={e.originalLanguage}>
                    {e.originalLanguage} ({s.original})
                  </option>
                  {translations.data?.map((tr) => (
                    <option key={tr.language} value={tr.language}>
                      {tr.language} – {s.translationStatus[tr.status] ?? tr.status}
                    </option>
                  ))}
                </select>
              </label>
            </header>
            {shown && v && !v.isTranslation && <p className="notice">{format(s.noTranslation, { lang: shown })}</p>}
            {summary && (
              <p className={summary.staleBlockCount > 0 ? "notice stale" : "notice"} data-stale-count={summary.staleBlockCount}>
                {summary.staleBlockCount > 0
                  ? format(s.staleCount, { n: summary.staleBlockCount, total: summary.totalBlockCount })
                  : s.upToDate}
                {summary.missingBlockCount > 0 && <> {format(s.missingCount, { n: summary.missingBlockCount })}</>}
              </p>
            )}
            {v && !view.loading && !staleBlocks.loading && (
              <DocumentView content={v.content} staleDetails={shown ? staleDetails : undefined} />
            )}
          </div>
          <EntrySidebar entry={e} refresh={refresh} version={version} translations={translations.data?.map((t) => t.language) ?? []} />
        </div>
      )}
    </main>
  );
}

function EntrySidebar({
  entry,
  refresh,
  version,
  translations,
}: {
  entry: EntryT;
  refresh: () => void;
  version: number;
  translations: string[];
}) {
  const s = useS();
  const entryId = entry.id;
  const expiry = useStableLoad(() => call("get", "/api/entries/{entryId}/expiry-status", { params: { entryId } }), [entryId, version]);
  const reviews = useStableLoad(() => call("get", "/api/entries/{entryId}/review-history", { params: { entryId } }), [entryId, version]);
  const users = useLoad(() => call("get", "/api/users").catch(() => []), []);
  const perms = useLoad(() => call("get", "/api/hubs/{key}/permissions", { params: { key: entry.hubKey } }), [entry.hubKey]);
  const nameOf = (id: string) => users.data?.find((u) => u.id === id)?.displayName ?? id.slice(0, 8);
  const last = reviews.data?.[0];
  const slotContext = useMemo(() => ({ entryId, hubKey: entry.hubKey, refresh }), [entryId, entry.hubKey, refresh]);
  const canEdit = perms.data && perms.data.role !== "Viewer";
  return (
    <aside className="entry-sidebar panel" aria-label={s.aboutEntry}>
      <h2>{s.aboutEntry}</h2>
      <ErrorBox error={expiry.error ?? reviews.error} />
      <dl>
        <dt>{s.status}</dt>
        <dd>
          <StatusBadge status={entry.status} />
        </dd>
        <dt>{s.expiry}</dt>
        <dd data-testid="expiry">
          {expiry.data ? (
            <ExpiryBadge
              status={expiry.data.status}
              expiryDate={expiry.data.expiryDate}
              isPaused={expiry.data.isPaused}
            />
          ) : (
            <Loading />
          )}
        </dd>
        <dt>{s.owner}</dt>
        <dd data-owner-id={entry.ownerId}>{nameOf(entry.ownerId)}</dd>
        <dt>{s.lastReview}</dt>
        <dd>
          {last
            ? format(s.reviewLine, {
                type: s.reviewTypes[last.reviewType],
                who: nameOf(last.reviewerId),
                date: new Date(last.createdAt).toLocaleDateString(),
              })
            : reviews.data
              ? s.neverReviewed
              : "…"}
        </dd>
        <dt>{s.aiView}</dt>
        <dd>
          <TrustBadge entryId={entryId} version={version} />
        </dd>
      </dl>
      <nav aria-label={s.entryLinks} className="entry-links">
        <ul>
          {canEdit && (
            <li>
              <Link to={`/entries/${entryId}/edit`}>{s.edit}</Link>
            </li>
          )}
          {translations.map((lang) => (
            <li key={lang}>
              <Link to={`/entries/${entryId}/translations/${encodeURIComponent(lang)}`}>{format(s.translationLink, { lang })}</Link>
            </li>
          ))}
        </ul>
      </nav>
      {reviews.data && reviews.data.length > 0 && (
        <details className="review-history">
          <summary>{format(s.reviewHistory, { n: reviews.data.length })}</summary>
          <ul>
            {reviews.data.map((r) => (
              <li key={r.id}>
                {format(s.reviewLine, {
                  type: s.reviewTypes[r.reviewType],
                  who: nameOf(r.reviewerId),
                  date: new Date(r.createdAt).toLocaleDateString(),
                })}
                {r.renewed && <> · {s.renewed}</>}
              </li>
            ))}
          </ul>
        </details>
      )}
      <Slot name="entry.sidebar.status" context={slotContext} />
    </aside>
  );
}

// The channels the badge can evaluate for: an internal assistant and a
// customer-facing one (names of the default context vocabulary,
// docs/trust-admin.md).
const CHANNELS = ["employee_chat", "public_support_chat"] as const;

function TrustBadge({ entryId, version }: { entryId: string; version: number }) {
  const s = useS();
  const [channel, setChannel] = useState<(typeof CHANNELS)[number]>("employee_chat");
  const result = useLoad(
    () =>
      call("post", "/api/trust/preview", {
        body: { sources: [`entry:${entryId}`], context: { actorType: "app", actorLabel: "Credence reader preview", channel } },
      }).then((r) => r.results[0] as TrustDecisionT | undefined),
    [entryId, channel, version],
  );
  const d = result.data;
  return (
    <div className="trust">
      <label>
        {s.channel}{" "}
        <select name="trustChannel" value={channel} onChange={(e) => setChannel(e.target.value as (typeof CHANNELS)[number])}>
          <option value="employee_chat">{s.channelInternal}</option>
          <option value="public_support_chat">{s.channelCustomer}</option>
        </select>
      </label>
      <ErrorBox error={result.error} />
      {result.loading && <Loading />}
      {d && (
        <details className="trust-details" data-trust-decision={d.decision}>
          <summary title={d.reasons.map((r) => r.message).join("\n")}>
            <span className={`badge trust-${d.decision}`}>{s.decisions[d.decision]}</span>{" "}
            <span className="hint">{format(s.freshness, { n: d.freshnessScore })}</span>
          </summary>
          <ul>
            {d.reasons.map((r) => (
              <li key={r.code} data-reason={r.code}>
                <span className={`badge trust-${r.severity}`}>{s.decisions[r.severity]}</span> {r.message}
              </li>
            ))}
          </ul>
          <p className="hint">
            {format(s.trustMeta, {
              sensitivity: d.sensitivity ?? "–",
              policy: d.policySource,
              action: d.recommendedAction,
            })}
          </p>
        </details>
      )}
    </div>
  );
}
