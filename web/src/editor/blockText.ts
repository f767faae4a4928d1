// The plain text of a block (decisions.md section 5), as the reader and the
// plugins compare and show it.
import type { PmNode } from "./Document";

// The plain text of a node: its text leaves joined, blocks (paragraphs,
// list items, table cells) separated by a space or a new line.
export function nodeText(node: PmNode): string {
  if (node.type === "text") return node.text ?? "";
  if (node.type === "hardBreak") return "\n";
  const parts = (node.content ?? []).map(nodeText);
  const sep = node.type === "tableRow" ? " | " : node.content?.some((c) => c.type !== "text" && c.type !== "hardBreak") ? "\n" : "";
  return parts.join(sep);
}
