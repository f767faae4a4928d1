// Translations of an entry: the list with their state (and adding one in a
// language of the tenant that has none), and one translation side by side
// with its original, block by block (aligned by blockId, align.ts): stale
// blocks highlighted, any block editable in place, save, mark up to date,
// machine translation when the server has a provider.
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { call, Problem } from "../../api/client";
import { DocumentView, parseDocument, SourceChange, type PmNode } from "../../editor/Document";
import { format } from "../../i18n";
import type { PageProps } from "../../shell/area";
import { Dialog, EmptyState, ErrorBox, Link, Loading, Progress, StatusBadge, navigate, useAction, useLoad, useStableLoad } from "../../ui";
import { alignBlocks, buildTranslationDocument, countRows, sameBlock, type AlignedRow } from "./align";
import {loadOriginal, mtAvailability, useMachineTranslation, useDates, useLanguageName } from "./api";
import { useS } from "./strings";
import "./work.css";

const BlockEditor = lazy(() => import("./BlockEditor").then((m) => ({ default: m.BlockEditor })));

const EMPTY_DOC = JSON.stringify({ type: "doc", content: [] });

function translationPath(entryId: string, language?: string) {
  return `/entries/${encodeURIComponent(entryId)}/translations${language ? `/${encodeURIComponent(language)}` : ""}`;
}

// Creates a translation: empty (every block then shows as missing, to
// translate in place) or by machine translation.
async function createTranslation(entryId: string, language: string, title: string, machine: boolean) {
  try {
    return await call("post", "/api/entries/{entryId}/translations/{language}", {
      params: { entryId, language },
      body: machine ? { useAutoTranslation: true } : { title, content: EMPTY_DOC },
    });
  } catch (e) {
    if (e instanceof Problem && e.code === "auto_translation_unavailable") mtAvailability.markUnavailable();
    throw e;
  }
}

export function TranslationsPage({ params }: PageProps) {
  const entryId = params.entryId;
  const s = useS();
  const dates = useDates();
  const languageName = useLanguageName();
  const [version, setVersion] = useState(0);
  const data = useLoad(
    () =>
      Promise.all([
        loadOriginal(entryId),
        call("get", "/api/entries/{entryId}/translations", { params: { entryId } }),
        call("get", "/api/admin/languages/enabled"),
      ]),
    [entryId, version],
  );
  const action = useAction();
  const [running, setRunning] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<string | null>(null);
  const [entry, translations, languages] = data.data ?? [];
  const missing = (languages ?? []).filter(
    (l) => l.code !== entry?.originalLanguage && !translations?.some((t) => t.language === l.code),
  );
  const mtAvailable = useMachineTranslation();
  const mtOff = mtAvailable !== true;

  const add = (code: string, machine: boolean) =>
    action.run(async () => {
      setRunning(machine ? code : null);
      try {
        await createTranslation(entryId, code, entry?.title ?? code, machine);
        navigate(translationPath(entryId, code));
      } finally {
        setRunning(null);
      }
    });

  return (
    <main className="work-page">
      <p>
        <Link to={`/entries/${encodeURIComponent(entryId)}`}>← {s.backToEntry}</Link>
      </p>
      <h1>{entry ? format(s.translationsOf, { title: entry.title }) : s.translationsTitle}</h1>
      <ErrorBox error={data.error} />
      {data.loading && <Loading />}
      {translations && translations.length === 0 && <EmptyState>{s.noTranslations}</EmptyState>}
      {translations && translations.length > 0 && (
        <div className="table-wrap">
          <table className="translations">
            <thead>
              <tr>
                <th scope="col">{s.language}</th>
                <th scope="col">{s.status}</th>
                <th scope="col">{s.staleBlocks}</th>
                <th scope="col">{s.missingBlocks}</th>
                <th scope="col">{s.translatedBlocks}</th>
                <th scope="col">{s.machineBlocks}</th>
                <th scope="col">{s.updated}</th>
                <th scope="col">
                  <span className="visually-hidden">{s.open}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {translations.map((t) => (
                <tr key={t.language} data-language={t.language} data-status={t.status}>
                  <td>
                    {languageName(t.language)} <code>{t.language}</code>
                  </td>
                  <td>
                    <StatusBadge status={t.status} />
                  </td>
                  <td data-stale-count={t.staleBlockCount}>{t.staleBlockCount}</td>
                  <td>{t.missingBlockCount}</td>
                  <td>{t.totalBlockCount}</td>
                  <td>{t.machineTranslatedBlockCount}</td>
                  <td>{dates.time(t.updatedAt)}</td>
                  <td className="actions">
                    <Link to={translationPath(entryId, t.language)} className="button">
                      {s.open}
                      <span className="visually-hidden"> {languageName(t.language)}</span>
                    </Link>
                    <button type="button" onClick={() => setToDelete(t.language)}>
                      {s.delete}
                      <span className="visually-hidden"> {languageName(t.language)}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entry && languages && (
        <section aria-labelledby="add-translation">
          <h2 id="add-translation">{s.addTranslation}</h2>
          <ErrorBox error={action.error} />
          {running && <Progress label={s.machineTranslating} />}
          {missing.length === 0 ? (
            <p>{s.noLanguagesLeft}</p>
          ) : (
            <ul className="add-languages">
              {missing.map((l) => (
                <li key={l.code} data-add-language={l.code}>
                  <button type="button" disabled={action.busy} onClick={() => add(l.code, false)}>
                    {format(s.addIn, { language: languageName(l.code) })}
                  </button>
                  {!mtOff && (
                    <button type="button" disabled={action.busy} onClick={() => add(l.code, true)}>
                      {format(s.addWithMt, { language: languageName(l.code) })}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {mtAvailable === false && <p className="hint">{s.mtUnavailable}</p>}
        </section>
      )}
      <Dialog
        open={toDelete !== null}
        title={format(s.deleteTranslation, { language: toDelete ? languageName(toDelete) : "" })}
        onClose={() => setToDelete(null)}
      >
        <p>{s.deleteTranslationText}</p>
        <ErrorBox error={action.error} />
        <div className="dialog-actions">
          <button type="button" onClick={() => setToDelete(null)}>
            {s.cancel}
          </button>
          <button
            type="button"
            className="danger"
            disabled={action.busy}
            onClick={() =>
              action.run(async () => {
                if (!toDelete) return;
                await call("delete", "/api/entries/{entryId}/translations/{language}", {
                  params: { entryId, language: toDelete },
                });
                setToDelete(null);
                setVersion((v) => v + 1);
              })
            }
          >
            {s.confirmDelete}
          </button>
        </div>
      </Dialog>
    </main>
  );
}

// One block's original, rendered read-only (the shell's document view).
function BlockView({ node, stale }: { node: PmNode; stale?: boolean }) {
  const id = typeof node.attrs?.blockId === "string" ? node.attrs.blockId : "";
  return (
    <DocumentView content={JSON.stringify({ type: "doc", content: [node] })} stale={stale ? new Set([id]) : undefined} />
  );
}

// Keyed by entry and language: moving to another translation starts afresh
// (no edits or answers carried over).
export function TranslationPage(props: PageProps) {
  return <TranslationEditor key={`${props.params.entryId}/${props.params.language}`} {...props} />;
}

function TranslationEditor({ params }: PageProps) {
  const { entryId, language } = params;
  const s = useS();
  const languageName = useLanguageName();
  const [version, setVersion] = useState(0);
  const original = useStableLoad(() => loadOriginal(entryId), [entryId, version]);
  const translation = useStableLoad(async () => {
    try {
      const [full, stale] = await Promise.all([
        call("get", "/api/entries/{entryId}/translations/{language}", { params: { entryId, language } }),
        call("get", "/api/entries/{entryId}/translations/{language}/stale-blocks", { params: { entryId, language } }),
      ]);
      return { full, stale };
    } catch (e) {
      if (e instanceof Problem && e.status === 404) return null; // no translation in this language yet
      throw e;
    }
  }, [entryId, language, version]);

  const [edits, setEdits] = useState<Map<string, PmNode>>(new Map());
  const [editing, setEditing] = useState<Set<string>>(new Set());
  const [title, setTitle] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [mtRunning, setMtRunning] = useState(false);
  const mtAvailable = useMachineTranslation();
  const [mtRefused, setMtOff] = useState(false);
  const mtOff = mtAvailable !== true || mtRefused;
  // The row whose editor just closed: its Edit button takes the focus back.
  const [justClosed, setJustClosed] = useState<string | null>(null);
  const action = useAction();

  const full = translation.data?.full;
  // What changed in each stale block's original since it was translated.
  const staleSource = useMemo(
    () => new Map((translation.data?.stale ?? []).map((b) => [b.blockId, { before: b.originalTextThen, after: b.originalText }])),
    [translation.data],
  );
  const rows: AlignedRow[] = useMemo(
    () =>
      original.data && full
        ? alignBlocks(
            parseDocument(original.data.content),
            parseDocument(full.content),
            new Set((translation.data?.stale ?? []).map((b) => b.blockId)),
          )
        : [],
    [original.data, full, translation.data],
  );
  const counts = countRows(rows);
  const changed = [...edits.entries()].filter(([id, node]) => !sameBlock(node, rows.find((r) => r.blockId === id)?.translated));
  const titleChanged = title !== null && full !== undefined && title !== full.title;
  const dirty = changed.length > 0 || titleChanged;
  const titleEmpty = title !== null && !title.trim();
  const langName = languageName(language);
  useEffect(() => {
    if (!dirty) return;
    const warn = (ev: BeforeUnloadEvent) => ev.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  function reload(message: string | null) {
    setEdits(new Map());
    setEditing(new Set());
    setTitle(null);
    setNotice(message);
    setVersion((v) => v + 1);
  }

  const save = () =>
    action.run(async () => {
      if (!full) return;
      const { doc } = buildTranslationDocument(rows, new Map(changed));
      await call("put", "/api/entries/{id}", {
        params: { id: entryId },
        query: { language },
        body: { title: title ?? full.title, content: JSON.stringify(doc) },
      });
      reload(s.saved);
    });

  const markUpToDate = () =>
    action.run(async () => {
      await call("put", "/api/entries/{entryId}/translations/{language}/mark-uptodate", { params: { entryId, language } });
      reload(s.markedUpToDate);
    });

  // One block: its translation still holds (a typo fixed in the original).
  const markBlockUpToDate = (blockId: string) =>
    action.run(async () => {
      await call("put", "/api/entries/{entryId}/translations/{language}/mark-uptodate", {
        params: { entryId, language },
        body: { blockIds: [blockId] },
      });
      reload(s.blockMarkedUpToDate);
    });

  const machineTranslate = () =>
    action.run(async () => {
      setMtRunning(true);
      setNotice(null);
      try {
        const t = await createTranslation(entryId, language, "", true);
        reload(format(s.machineDone, { n: t.machineTranslatedBlockCount }));
      } catch (e) {
        if (e instanceof Problem && e.code === "auto_translation_unavailable") setMtOff(true);
        throw e;
      } finally {
        setMtRunning(false);
      }
    });

  const create = () =>
    action.run(async () => {
      await createTranslation(entryId, language, original.data?.title ?? language, false);
      reload(null);
    });

  const startEdit = (row: AlignedRow) => {
    setNotice(null);
    setEditing((e) => new Set(e).add(row.blockId));
    if (!edits.has(row.blockId)) {
      const seed = row.translated ?? row.original;
      if (seed) setEdits((m) => new Map(m).set(row.blockId, seed));
    }
  };
  const stopEdit = (id: string, discard: boolean) => {
    setJustClosed(id);
    setEditing((e) => {
      const next = new Set(e);
      next.delete(id);
      return next;
    });
    if (discard)
      setEdits((m) => {
        const next = new Map(m);
        next.delete(id);
        return next;
      });
  };

  const e = original.data;
  const loading = original.loading || translation.loading;
  return (
    <main className="work-page translation-page">
      <p className="crumbs">
        <Link to={`/entries/${encodeURIComponent(entryId)}?lang=${encodeURIComponent(language)}`}>← {s.backToEntry}</Link>{" "}
        <Link to={translationPath(entryId)}>{s.allTranslations}</Link>
      </p>
      <h1>{e ? format(s.sideBySide, { language: langName, title: e.title }) : s.translationsTitle}</h1>
      <ErrorBox error={original.error ?? translation.error} />
      {loading && !full && <Loading />}
      {e && translation.data === null && (
        <EmptyState>
          <p>{format(s.noTranslationHere, { language: langName })}</p>
          <ErrorBox error={action.error} />
          <button type="button" disabled={action.busy} onClick={create}>
            {s.createIt}
          </button>
        </EmptyState>
      )}
      {e && full && (
        <>
          <div className="translation-status">
            <StatusBadge status={full.status} />{" "}
            <span data-stale-count={counts.stale} className={counts.stale > 0 ? "notice stale" : "notice"}>
              {format(s.counts, { stale: counts.stale, missing: counts.missing, total: counts.total })}
            </span>
            {full.machineTranslatedBlockCount > 0 && (
              <span className="hint"> · {format(s.machineCount, { n: full.machineTranslatedBlockCount })}</span>
            )}
          </div>
          <label className="title-field">
            {s.translationTitle}
            <input
              name="translationTitle"
              required
              maxLength={300}
              value={title ?? full.title}
              onChange={(ev) => setTitle(ev.target.value)}
            />
          </label>
          <div className="translation-actions" role="group" aria-label={s.translationsTitle}>
            <button type="button" className="primary" disabled={!dirty || titleEmpty || action.busy} onClick={save}>
              {action.busy && !mtRunning ? s.saving : changed.length > 0 ? format(s.saveChanges, { n: changed.length }) : s.save}
            </button>
            <button
              type="button"
              disabled={dirty || action.busy}
              onClick={markUpToDate}
              title={dirty ? s.unsavedFirst : s.markUpToDateHelp}
              aria-describedby="mark-help"
            >
              {s.markUpToDate}
            </button>
            {!mtOff && (
              <button type="button" disabled={dirty || action.busy} onClick={machineTranslate}>
                {s.machineTranslate}
              </button>
            )}
          </div>
          <p id="mark-help" className="hint">
            {dirty ? s.unsavedFirst : s.markUpToDateHelp}
          </p>
          {(mtAvailable === false || mtRefused) && <p className="hint">{s.mtUnavailable}</p>}
          {mtRunning && <Progress label={s.machineTranslating} />}
          <ErrorBox error={action.error} />
          {notice && (
            <p role="status" className="saved">
              {notice}
            </p>
          )}
          {rows.length === 0 && <EmptyState>{s.emptyOriginal}</EmptyState>}
          {rows.length > 0 && (
            <div className="aligned" role="table" aria-label={format(s.sideBySide, { language: langName, title: e.title })}>
              <div className="aligned-head" role="row">
                <div role="columnheader">{format(s.original, { language: languageName(e.originalLanguage) })}</div>
                <div role="columnheader">{format(s.translation, { language: langName })}</div>
              </div>
              {rows.map((row, i) => {
                const state = !row.original ? "removed" : row.stale ? "stale" : row.translated ? "current" : "missing";
                const edit = edits.get(row.blockId);
                const isEditing = editing.has(row.blockId);
                const isChanged = !!edit && !sameBlock(edit, row.translated);
                return (
                  <div
                    key={row.blockId}
                    role="row"
                    className={`aligned-row state-${state}${isChanged ? " changed" : ""}`}
                    data-block-id={row.blockId}
                    data-state={state}
                  >
                    <div role="cell" className="cell original">
                      <span className="cell-label">{format(s.original, { language: e.originalLanguage })}</span>
                      {row.original ? <BlockView node={row.original} /> : <p className="removed">{s.removedOriginal}</p>}
                      {state === "stale" && staleSource.get(row.blockId) && (
                        <SourceChange detail={staleSource.get(row.blockId)!} />
                      )}
                    </div>
                    <div role="cell" className="cell translated">
                      <span className="cell-label">{format(s.translation, { language })}</span>
                      {state === "stale" && <span className="state-label stale-label">⚠ {s.staleLabel}</span>}
                      {state === "missing" && !edit && <span className="state-label missing-label">{s.missingLabel}</span>}
                      {state === "removed" && <span className="state-label removed-label">{s.removedLabel}</span>}
                      {isEditing && edit ? (
                        <Suspense fallback={<Loading />}>
                          <BlockEditor
                            node={edit}
                            blockId={row.blockId}
                            label={format(s.blockEditor, { n: i + 1 })}
                            onChange={(node) => setEdits((m) => new Map(m).set(row.blockId, node))}
                          />
                        </Suspense>
                      ) : edit ? (
                        <BlockView node={edit} />
                      ) : row.translated ? (
                        <BlockView node={row.translated} />
                      ) : null}
                      {isChanged && <span className="state-label changed-label">{s.editedBlock}</span>}
                      {row.original && (
                        <div className="row-actions">
                          {isEditing ? (
                            <button key="done" type="button" onClick={() => stopEdit(row.blockId, false)}>
                              {s.doneBlock}
                            </button>
                          ) : (
                            <button
                              key="edit"
                              type="button"
                              autoFocus={justClosed === row.blockId}
                              onClick={() => startEdit(row)}
                            >
                              {row.translated || edit ? s.editBlock : s.translateBlock}
                              <span className="visually-hidden"> {format(s.blockEditor, { n: i + 1 })}</span>
                            </button>
                          )}
                          {edit && (
                            <button type="button" onClick={() => stopEdit(row.blockId, true)}>
                              {s.discardBlock}
                              <span className="visually-hidden"> {format(s.blockEditor, { n: i + 1 })}</span>
                            </button>
                          )}
                          {state === "stale" && !edit && (
                            <button type="button" disabled={action.busy} onClick={() => markBlockUpToDate(row.blockId)}>
                              {s.markBlockUpToDate}
                              <span className="visually-hidden"> {format(s.blockEditor, { n: i + 1 })}</span>
                            </button>
                          )}
                        </div>
                      )}
                    </div>
                  </div>
                );
              })}
            </div>
          )}
        </>
      )}
    </main>
  );
}
