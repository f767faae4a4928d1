// The editor: TipTap (headings, lists, code, links) with block ids; saves a
// new entry with POST /api/entries.
import { useEditor, EditorContent, type JSONContent } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useState } from "react";
import { call, Problem } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { BlockId } from "../../editor/BlockId";
import { useT } from "../../i18n";
import { ErrorBox, navigate } from "../../ui";

function slugify(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
}

// The editor keeps an empty paragraph at the end to type into (StarterKit's
// trailing node); it is not content.
function withoutTrailingEmptyParagraphs(doc: JSONContent): JSONContent {
  const content = [...(doc.content ?? [])];
  while (content.length > 1 && content[content.length - 1].type === "paragraph" && !content[content.length - 1].content?.length)
    content.pop();
  return { ...doc, content };
}

export function EditorPage({ params }: PageProps) {
  const hubKey = params.hubKey;
  const t = useT();
  const [title, setTitle] = useState("");
  const [key, setKey] = useState("");
  const [keyEdited, setKeyEdited] = useState(false);
  const [language, setLanguage] = useState("en");
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), BlockId],
    content: "<p></p>",
    injectCSS: false, // the page's CSP allows no inline styles
    editorProps: { attributes: { "aria-label": t.body, role: "textbox", "aria-multiline": "true" } },
  });

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (!editor) return;
    setSaving(true);
    setError(null);
    try {
      await call("post", "/api/entries", {
        body: {
          hubKey,
          key: key || slugify(title),
          title,
          originalLanguage: language,
          content: JSON.stringify(withoutTrailingEmptyParagraphs(editor.getJSON())),
        },
      });
      navigate(`/hubs/${encodeURIComponent(hubKey)}`);
    } catch (e) {
      setError(e instanceof Problem ? e : new Problem(0, t.error, String(e)));
    } finally {
      setSaving(false);
    }
  }

  function link() {
    if (!editor) return;
    const href = window.prompt(t.linkPrompt, "https://");
    if (href) editor.chain().focus().extendMarkRange("link").setLink({ href }).run();
    else editor.chain().focus().unsetLink().run();
  }

  const tool = (label: string, run: () => void, active: boolean) => (
    // mousedown would move the focus (and the selection) out of the editor
    <button type="button" className={active ? "tool active" : "tool"} onMouseDown={(e) => e.preventDefault()} onClick={run}>
      {label}
    </button>
  );

  return (
    <form className="editor" onSubmit={save}>
      <h1>{t.newEntry}</h1>
      <ErrorBox error={error} />
      <label>
        {t.title}
        <input
          name="title"
          required
          maxLength={300}
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            if (!keyEdited) setKey(slugify(e.target.value));
          }}
        />
      </label>
      <label>
        {t.key}
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
        {t.language}
        <select name="language" value={language} onChange={(e) => setLanguage(e.target.value)}>
          <option value="en">English</option>
          <option value="es">Español</option>
        </select>
      </label>
      {editor && (
        <div className="toolbar" role="toolbar">
          {tool(t.heading1, () => editor.chain().focus().toggleHeading({ level: 1 }).run(), editor.isActive("heading", { level: 1 }))}
          {tool(t.heading2, () => editor.chain().focus().toggleHeading({ level: 2 }).run(), editor.isActive("heading", { level: 2 }))}
          {tool(t.bulletList, () => editor.chain().focus().toggleBulletList().run(), editor.isActive("bulletList"))}
          {tool(t.orderedList, () => editor.chain().focus().toggleOrderedList().run(), editor.isActive("orderedList"))}
          {tool(t.codeBlock, () => editor.chain().focus().toggleCodeBlock().run(), editor.isActive("codeBlock"))}
          {tool(t.link, link, editor.isActive("link"))}
        </div>
      )}
      <EditorContent editor={editor} className="document editing" />
      <button type="submit" disabled={saving || !title}>
        {saving ? t.saving : t.save}
      </button>
    </form>
  );
}
