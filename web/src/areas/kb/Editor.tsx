// The editor: TipTap with headings, lists, code, links and tables, block ids
// kept (src/editor/BlockId.ts). New entries at /hubs/{key}/new (optionally
// from an entry template: POST /api/templates/{id}/apply), existing ones at
// /entries/{id}/edit (PUT /api/entries/{id}), with the entry's actions
// (EntryActions.tsx). The document lives in the editor only: React state
// holds no copy of it, and its JSON is taken on save.
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import { useEffect, useRef, useState } from "react";
import { call } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { cleanDocument, editorExtensions } from "../../editor/extensions";
import { embedChoices, emitEditorEvent } from "../../plugins/editorHooks";
import { ErrorBox, Link, Loading, navigate, useAction, useLoad } from "../../ui";
import { slugify, type EntryT } from "./api";
import { EntryActions } from "./EntryActions";
import { loadOriginal } from "../../api/entries";
import { useS } from "./strings";
import "./kb.css";

export function EditorPage({ params, query }: PageProps) {
  const entryId = params.entryId as string | undefined;
  const s = useS();
  // Editing: the entry in its original language.
  const loaded = useLoad(async () => {
    if (!entryId) return null;
    return loadOriginal(entryId);
  }, [entryId]);
  if (!entryId)
    return (
      <main className="kb editor-page">
        <EditorForm key={params.hubKey} hubKey={params.hubKey} entry={null} justCreated={false} />
      </main>
    );
  return (
    <main className="kb editor-page">
      <ErrorBox error={loaded.error} />
      {loaded.loading && (
        <>
          <h1>{s.editEntry}</h1>
          <Loading />
        </>
      )}
      {loaded.data && (
        // One editor per entry: TipTap is created once per EditorForm.
        <EditorForm key={loaded.data.id} hubKey={loaded.data.hubKey} entry={loaded.data} justCreated={query.get("created") === "1"} />
      )}
    </main>
  );
}

function EditorForm({ hubKey, entry: initial, justCreated }: { hubKey: string; entry: EntryT | null; justCreated: boolean }) {
  const s = useS();
  const [entry, setEntry] = useState<EntryT | null>(initial);
  const [title, setTitle] = useState(initial?.title ?? "");
  const [key, setKey] = useState("");
  const [keyEdited, setKeyEdited] = useState(false);
  const [language, setLanguage] = useState("en");
  const [dirty, setDirty] = useState(false);
  const [notice, setNotice] = useState<string | null>(justCreated ? s.created : null);
  const save = useAction();
  const context = useRef({ entryId: initial?.id, hubKey });
  context.current = { entryId: entry?.id, hubKey };

  // Created once (deps []): new options on every render would reconfigure
  // the editor while the user types.
  const editor = useEditor({
    extensions: editorExtensions(),
    content: initial ? JSON.parse(initial.content || '{"type":"doc","content":[]}') : "<p></p>",
    injectCSS: false, // the page's CSP allows no inline styles
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: { "aria-label": s.body, role: "textbox", "aria-multiline": "true" },
      handlePaste: (_view, event) => {
        emitEditorEvent("editor:paste", {
          ...context.current,
          text: event.clipboardData?.getData("text/plain") ?? "",
          html: event.clipboardData?.getData("text/html") ?? "",
        });
        return false; // TipTap pastes as usual
      },
    },
    onUpdate: ({ transaction }) => {
      if (transaction.docChanged) setDirty(true); // a no-op re-render once dirty
    },
  }, []);

  // Leaving the page (closing the tab, reloading) with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  async function submit(e?: React.FormEvent): Promise<EntryT | undefined> {
    e?.preventDefault();
    if (!editor || save.busy) return undefined;
    setNotice(null);
    const content = JSON.stringify(cleanDocument(editor.getJSON()));
    const saved = await save.run(() =>
      entry
        ? call("put", "/api/entries/{id}", {
            params: { id: entry.id },
            body: { title, content, ...(entry.previewImage ? { previewImage: entry.previewImage } : {}) },
          })
        : call("post", "/api/entries", { body: { hubKey, key: key || slugify(title), title, originalLanguage: language, content } }),
    );
    if (!saved) return undefined;
    if (!entry) {
      navigate(`/entries/${saved.id}/edit?created=1`);
      return saved;
    }
    setEntry(saved);
    setDirty(false);
    setNotice(s.savedEntry);
    return saved;
  }

  return (
    <>
      {!entry && (
        <p>
          <Link to={`/hubs/${encodeURIComponent(hubKey)}`}>← {s.backToHub}</Link>
        </p>
      )}
      {entry && (
        <p>
          <Link to={`/entries/${entry.id}`}>← {s.backToEntry}</Link>
        </p>
      )}
      <h1 id="editor-title">{entry ? s.editEntry : s.newEntry}</h1>
      <ErrorBox error={save.error} />
      {notice && (
        <p role="status" className="notice ok">
          {notice}
        </p>
      )}
      {entry && (
        <EntryActions entry={entry} dirty={dirty} saveFirst={submit} onEntry={setEntry} onNotice={setNotice} />
      )}
      <form className="editor" onSubmit={submit} aria-labelledby="editor-title">
      {!entry && editor && <TemplatePicker editor={editor} onApplied={() => setDirty(true)} />}
      <label>
        {s.title}
        <input
          name="title"
          required
          maxLength={300}
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            setDirty(true);
            if (!keyEdited) setKey(slugify(e.target.value));
          }}
        />
      </label>
      {!entry && (
        <div className="row">
          <label>
            {s.key}
            <input
              name="key"
              required
              pattern="[a-z0-9]+(-[a-z0-9]+)*"
              value={key}
              onChange={(e) => {
                setKeyEdited(true);
                setKey(e.target.value);
              }}
            />
          </label>
          <label>
            {s.language}
            <select name="language" value={language} onChange={(e) => setLanguage(e.target.value)}>
              <option value="en">English</option>
              <option value="es">Español</option>
              <option value="de">Deutsch</option>
            </select>
          </label>
        </div>
      )}
      {editor && <Toolbar editor={editor} entryId={entry?.id} hubKey={hubKey} />}
      <EditorContent editor={editor} className="document editing" />
      <div className="actions save-bar">
        {/* Not disabled while saving: a disabled button loses the keyboard focus. */}
        <button type="submit" disabled={!title} aria-disabled={save.busy || undefined}>
          {save.busy ? s.saving : s.save}
        </button>
        {entry && dirty && <span className="hint">{s.unsaved}</span>}
      </div>
      </form>
    </>
  );
}

// Formatting, tables and plugin embeds. The active states come from
// useEditorState (a small selector per transaction), not from re-rendering
// the page.
function Toolbar({ editor, entryId, hubKey }: { editor: Editor; entryId?: string; hubKey: string }) {
  const s = useS();
  const state = useEditorState({
    editor,
    selector: ({ editor: ed }) => ({
      h1: ed.isActive("heading", { level: 1 }),
      h2: ed.isActive("heading", { level: 2 }),
      h3: ed.isActive("heading", { level: 3 }),
      bold: ed.isActive("bold"),
      italic: ed.isActive("italic"),
      bullet: ed.isActive("bulletList"),
      ordered: ed.isActive("orderedList"),
      code: ed.isActive("codeBlock"),
      link: ed.isActive("link"),
      table: ed.isActive("table"),
    }),
  });
  const embeds = embedChoices();

  function link() {
    const href = window.prompt(s.linkPrompt, "https://");
    if (href) editor.chain().focus().extendMarkRange("link").setLink({ href }).run();
    else editor.chain().focus().unsetLink().run();
  }

  function insertEmbed(index: string) {
    const choice = embeds[Number(index)];
    if (!choice) return;
    const input = window.prompt(choice.prompt, "");
    if (input === null) return;
    const node = choice.create(input);
    if (!node) return;
    editor.chain().focus().insertContent(node).run();
    emitEditorEvent("editor:insert-embed", { entryId, hubKey, pluginId: choice.pluginId, input, node });
  }

  const tool = (label: string, run: () => void, active = false) => (
    // mousedown would move the focus (and the selection) out of the editor
    <button
      type="button"
      className={active ? "tool active" : "tool"}
      aria-pressed={active}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
    >
      {label}
    </button>
  );
  const c = () => editor.chain().focus();
  return (
    <div className="toolbar" role="toolbar" aria-label={s.formatting}>
      {tool(s.heading1, () => c().toggleHeading({ level: 1 }).run(), state?.h1)}
      {tool(s.heading2, () => c().toggleHeading({ level: 2 }).run(), state?.h2)}
      {tool(s.heading3, () => c().toggleHeading({ level: 3 }).run(), state?.h3)}
      {tool(s.bold, () => c().toggleBold().run(), state?.bold)}
      {tool(s.italic, () => c().toggleItalic().run(), state?.italic)}
      {tool(s.bulletList, () => c().toggleBulletList().run(), state?.bullet)}
      {tool(s.orderedList, () => c().toggleOrderedList().run(), state?.ordered)}
      {tool(s.codeBlock, () => c().toggleCodeBlock().run(), state?.code)}
      {tool(s.link, link, state?.link)}
      {tool(s.insertTable, () => c().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run())}
      {state?.table && (
        <>
          {tool(s.addRow, () => c().addRowAfter().run())}
          {tool(s.addColumn, () => c().addColumnAfter().run())}
          {tool(s.deleteRow, () => c().deleteRow().run())}
          {tool(s.deleteColumn, () => c().deleteColumn().run())}
          {tool(s.deleteTable, () => c().deleteTable().run())}
        </>
      )}
      {embeds.length > 0 && (
        <select aria-label={s.insertEmbed} value="" onChange={(e) => insertEmbed(e.target.value)}>
          <option value="">{s.insertEmbed}</option>
          {embeds.map((choice, i) => (
            <option key={`${choice.pluginId}-${choice.name}`} value={i}>
              {choice.name}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

// New entries may start from an entry template (docs/templates.md): apply
// gives its blocks with fresh block ids.
function TemplatePicker({ editor, onApplied }: { editor: Editor; onApplied: () => void }) {
  const s = useS();
  const templates = useLoad(() => call("get", "/api/templates"), []);
  const [id, setId] = useState("");
  const action = useAction();
  async function apply() {
    const applied = await action.run(() => call("post", "/api/templates/{id}/apply", { params: { id } }));
    if (!applied) return;
    editor.commands.setContent(JSON.parse(applied.content));
    onApplied();
  }
  if (templates.error) return <ErrorBox error={templates.error} />;
  if (!templates.data || templates.data.length === 0) return null;
  return (
    <div className="template-picker row">
      <ErrorBox error={action.error} />
      <label>
        {s.fromTemplate}
        <select name="template" value={id} onChange={(e) => setId(e.target.value)}>
          <option value="">{s.blankEntry}</option>
          {templates.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
              {t.category ? ` (${t.category})` : ""}
            </option>
          ))}
        </select>
      </label>
      <button type="button" disabled={!id || action.busy} onClick={apply}>
        {s.useTemplate}
      </button>
    </div>
  );
}
