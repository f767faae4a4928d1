// The entry reader: the original or one of its translations (a language
// switcher), with each stale block of a translation marked from
// GET .../translations/{language}/stale-blocks.
import { call } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { DocumentView } from "../../editor/Document";
import { format, useT } from "../../i18n";
import { ErrorBox, Link, Loading, StatusBadge, navigate, useLoad } from "../../ui";

export function ReaderPage({ params, query }: PageProps) {
  const entryId = params.entryId;
  const language = query.get("lang");
  const t = useT();
  const entry = useLoad(() => call("get", "/api/entries/{id}", { params: { id: entryId } }), [entryId]);
  const translations = useLoad(
    () => call("get", "/api/entries/{entryId}/translations", { params: { entryId } }),
    [entryId],
  );
  const shown = language && language !== entry.data?.originalLanguage ? language : null;
  const translation = useLoad(
    () =>
      shown
        ? Promise.all([
            call("get", "/api/entries/{entryId}/translations/{language}", { params: { entryId, language: shown } }),
            call("get", "/api/entries/{entryId}/translations/{language}/stale-blocks", {
              params: { entryId, language: shown },
            }),
          ])
        : Promise.resolve(null),
    [entryId, shown],
  );

  const e = entry.data;
  const stale = new Set((translation.data?.[1] ?? []).map((b) => b.blockId));
  const current = translation.data?.[0];
  const switchTo = (lang: string) =>
    navigate(`/entries/${entryId}${lang === e?.originalLanguage ? "" : `?lang=${encodeURIComponent(lang)}`}`);

  return (
    <main>
      {e && (
        <p>
          <Link to={`/hubs/${encodeURIComponent(e.hubKey)}`}>← {t.back}</Link>
        </p>
      )}
      <ErrorBox error={entry.error ?? translations.error ?? translation.error} />
      {(entry.loading || translation.loading) && <Loading />}
      {e && (
        <>
          <header className="entry-header">
            <h1>{current?.title ?? e.title}</h1>
            <StatusBadge status={current?.status ?? e.status} />
            <label className="language-switcher">
              {t.language}{" "}
              <select name="language" value={shown ?? e.originalLanguage} onChange={(ev) => switchTo(ev.target.value)}>
                <option value={e.originalLanguage}>
                  {e.originalLanguage} ({t.original})
                </option>
                {translations.data?.map((tr) => (
                  <option key={tr.language} value={tr.language}>
                    {tr.language} – {t.status[tr.status] ?? tr.status}
                  </option>
                ))}
              </select>
            </label>
          </header>
          {current && (
            <p className={current.staleBlockCount > 0 ? "notice stale" : "notice"}>
              {current.staleBlockCount > 0
                ? format(t.staleCount, { n: current.staleBlockCount, total: current.totalBlockCount })
                : t.upToDate}
            </p>
          )}
          {!translation.loading && <DocumentView content={current ? current.content : e.content} stale={stale} />}
        </>
      )}
    </main>
  );
}
