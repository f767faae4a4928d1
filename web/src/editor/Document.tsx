// Renders a stored editor document (decisions.md section 5) read-only; each
// top-level block carries its id, and blocks listed in `stale` are marked.
import type { ReactNode } from "react";
import { useT } from "../i18n";

export interface PmNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

function safeHref(href: unknown): string | undefined {
  if (typeof href !== "string") return undefined;
  return /^(https?:|mailto:|\/|#)/i.test(href) ? href : undefined;
}

function renderText(node: PmNode, key: number): ReactNode {
  let out: ReactNode = node.text ?? "";
  for (const mark of node.marks ?? []) {
    if (mark.type === "bold") out = <strong>{out}</strong>;
    else if (mark.type === "italic") out = <em>{out}</em>;
    else if (mark.type === "strike") out = <s>{out}</s>;
    else if (mark.type === "underline") out = <u>{out}</u>;
    else if (mark.type === "code") out = <code>{out}</code>;
    else if (mark.type === "link")
      out = (
        <a href={safeHref(mark.attrs?.href)} rel="noopener noreferrer">
          {out}
        </a>
      );
  }
  return <span key={key}>{out}</span>;
}

function renderChildren(nodes: PmNode[] | undefined): ReactNode[] {
  return (nodes ?? []).map((n, i) => renderNode(n, i));
}

function renderNode(node: PmNode, key: number): ReactNode {
  switch (node.type) {
    case "text":
      return renderText(node, key);
    case "paragraph":
      return <p key={key}>{renderChildren(node.content)}</p>;
    case "heading": {
      const level = Math.min(Math.max(Number(node.attrs?.level ?? 1), 1), 6);
      const Tag = `h${level}` as "h1";
      return <Tag key={key}>{renderChildren(node.content)}</Tag>;
    }
    case "bulletList":
      return <ul key={key}>{renderChildren(node.content)}</ul>;
    case "orderedList":
      return <ol key={key}>{renderChildren(node.content)}</ol>;
    case "listItem":
      return <li key={key}>{renderChildren(node.content)}</li>;
    case "codeBlock":
      return (
        <pre key={key}>
          <code>{(node.content ?? []).map((c) => c.text ?? "").join("")}</code>
        </pre>
      );
    case "blockquote":
      return <blockquote key={key}>{renderChildren(node.content)}</blockquote>;
    case "hardBreak":
      return <br key={key} />;
    case "horizontalRule":
      return <hr key={key} />;
    default:
      return <div key={key}>{renderChildren(node.content)}</div>;
  }
}

export function parseDocument(content: string | null | undefined): PmNode[] {
  if (!content) return [];
  try {
    const doc = JSON.parse(content) as PmNode;
    return doc.content ?? [];
  } catch {
    return [{ type: "paragraph", content: [{ type: "text", text: content }] }];
  }
}

export function DocumentView({ content, stale }: { content: string | null | undefined; stale?: Set<string> }) {
  const t = useT();
  return (
    <article className="document">
      {parseDocument(content).map((node, i) => {
        const id = typeof node.attrs?.blockId === "string" ? node.attrs.blockId : undefined;
        const isStale = !!id && !!stale?.has(id);
        const removed = node.attrs?.isDeleted === true;
        return (
          <section
            key={id ?? i}
            className={isStale ? "block stale" : "block"}
            data-block-id={id}
            data-stale={isStale ? "true" : undefined}
            title={isStale ? t.stale : undefined}
          >
            {isStale && <span className="stale-marker">⚠ {t.stale}</span>}
            {removed ? <p className="removed">{t.contentRemoved}</p> : renderNode(node, 0)}
          </section>
        );
      })}
    </article>
  );
}
