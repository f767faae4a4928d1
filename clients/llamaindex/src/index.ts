// @credence/llamaindex: a LlamaIndex.TS node postprocessor gated by Credence (docs/agents.md, "Retrievers").
import {
  TRUST_METADATA_KEY,
  annotationOf,
  type CredenceClient,
  type FilteredCandidates,
  type TrustAnnotation,
  type TrustContext,
} from "@credence/client";
import type { MessageContent } from "@llamaindex/core/llms";
import type { BaseNodePostprocessor } from "@llamaindex/core/postprocessor";
import type { BaseNode, NodeWithScore } from "@llamaindex/core/schema";

export { TRUST_METADATA_KEY, type TrustAnnotation };

export interface CredencePostprocessorOptions {
  /** The Credence client, with the AI application's key or client credentials. */
  client: CredenceClient;
  /**
   * Sent with every request: actorType, actorLabel, action, channel, externalModel, language. A request
   * made with an app's key and no channel takes the app's registered channel (docs/apps.md).
   */
  context?: TrustContext;
  /**
   * Where a node's Credence source id is (`entry:<uuid>`, `<connector>:<external id>`, a URL): a
   * metadata key (default `sourceId`; nodes inherit their document's metadata) or a function.
   */
  sourceId?: string | ((node: BaseNode) => string | null | undefined);
  /**
   * Nodes without a source id cannot be asked about: dropped by default
   * (nothing unchecked reaches a prompt); `true` keeps them, unannotated.
   */
  keepUnidentified?: boolean;
  /** Called with each call's outcome, blocked nodes included (for logging; they must not be used). */
  onFiltered?: (result: FilteredCandidates<NodeWithScore>) => void;
}

/**
 * A node postprocessor (a query engine's or chat engine's `nodePostprocessors`):
 * the retrieved nodes' source ids go to POST /api/trust/filter-sources in one
 * request per call; blocked nodes are dropped; every node kept is a copy
 * whose `metadata.credence` holds the decision id, the decision, its reasons
 * and its obligations (kept out of the text given to the LLM and to the
 * embedding model). If Credence cannot be asked, the call fails: it never
 * answers nodes it could not check.
 */
export class CredenceNodePostprocessor implements BaseNodePostprocessor {
  readonly client: CredenceClient;
  readonly context: TrustContext | undefined;
  readonly keepUnidentified: boolean;
  private readonly sourceIdOf: (node: BaseNode) => string | null | undefined;
  private readonly onFiltered: CredencePostprocessorOptions["onFiltered"];

  constructor(options: CredencePostprocessorOptions) {
    if (!options?.client) throw new TypeError("CredenceNodePostprocessor needs a client");
    this.client = options.client;
    this.context = options.context;
    this.keepUnidentified = options.keepUnidentified ?? false;
    const sourceId = options.sourceId ?? "sourceId";
    this.sourceIdOf =
      typeof sourceId === "function"
        ? sourceId
        : (node) => {
            const value: unknown = node.metadata?.[sourceId];
            return typeof value === "string" ? value : undefined;
          };
    this.onFiltered = options.onFiltered;
  }

  async postprocessNodes(nodes: NodeWithScore[], _query?: MessageContent): Promise<NodeWithScore[]> {
    const result = await this.client.filterCandidates(nodes, (n) => this.sourceIdOf(n.node), this.context);
    this.onFiltered?.(result);
    const kept = new Map<NodeWithScore, TrustAnnotation>(result.kept.map((c) => [c.item, annotationOf(c)]));
    const unidentified = new Set(this.keepUnidentified ? result.unidentified : []);
    return nodes.flatMap((withScore) => {
      const annotation = kept.get(withScore);
      if (annotation) return [{ ...withScore, node: annotated(withScore.node, annotation) }];
      return unidentified.has(withScore) ? [withScore] : [];
    });
  }
}

function annotated(node: BaseNode, annotation: TrustAnnotation): BaseNode {
  // A copy: a retriever answers the index's own node objects.
  const copy = node.clone();
  copy.metadata = { ...copy.metadata, [TRUST_METADATA_KEY]: annotation };
  for (const keys of [copy.excludedLlmMetadataKeys, copy.excludedEmbedMetadataKeys]) {
    if (!keys.includes(TRUST_METADATA_KEY)) keys.push(TRUST_METADATA_KEY);
  }
  return copy;
}
