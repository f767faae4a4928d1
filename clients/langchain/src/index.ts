// @credence/langchain: a LangChain.js retriever gated by Credence (docs/agents.md, "Retrievers").
import {
  TRUST_METADATA_KEY,
  annotationOf,
  type CredenceClient,
  type FilteredCandidates,
  type TrustAnnotation,
  type TrustContext,
} from "@credence/client";
import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import { Document, type DocumentInterface } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput, type BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";

export { TRUST_METADATA_KEY, type TrustAnnotation };

export interface CredenceRetrieverInput extends BaseRetrieverInput {
  /** The Credence client, with the AI application's key or client credentials. */
  client: CredenceClient;
  /** The retriever whose documents are checked. Give this or `vectorStore`. */
  retriever?: BaseRetrieverInterface;
  /** A vector store to retrieve from (its own retriever, `k` documents). Give this or `retriever`. */
  vectorStore?: VectorStoreInterface;
  /** With `vectorStore`: how many documents to retrieve before filtering (default 4, LangChain's). */
  k?: number;
  /**
   * Sent with every request: actorType, actorLabel, action, channel, externalModel, language. A request
   * made with an app's key and no channel takes the app's registered channel (docs/apps.md).
   */
  context?: TrustContext;
  /**
   * Where a document's Credence source id is (`entry:<uuid>`, `<connector>:<external id>`, a URL):
   * a metadata key (default `sourceId`) or a function.
   */
  sourceId?: string | ((document: DocumentInterface) => string | null | undefined);
  /**
   * Documents without a source id cannot be asked about: dropped by default
   * (nothing unchecked reaches a prompt); `true` keeps them, unannotated,
   * for corpora that mix sources Credence does not govern.
   */
  keepUnidentified?: boolean;
  /** Called with each query's outcome, blocked documents included (for logging; they must not be used). */
  onFiltered?: (result: FilteredCandidates<DocumentInterface>, query: string) => void;
}

/**
 * Wraps a retriever or a vector store: the candidates' source ids go to
 * POST /api/trust/filter-sources in one request per query; blocked documents
 * are dropped; every document kept is a copy whose `metadata.credence` holds
 * the decision id, the decision, its reasons and its obligations (citation,
 * disclaimer). If Credence cannot be asked, the retrieval fails: it never
 * answers documents it could not check.
 */
export class CredenceRetriever extends BaseRetriever {
  override lc_namespace = ["credence", "retrievers"];

  static override lc_name(): string {
    return "CredenceRetriever";
  }

  readonly client: CredenceClient;
  readonly retriever: BaseRetrieverInterface;
  readonly context: TrustContext | undefined;
  readonly keepUnidentified: boolean;
  private readonly sourceIdOf: (document: DocumentInterface) => string | null | undefined;
  private readonly onFiltered: CredenceRetrieverInput["onFiltered"];

  constructor(fields: CredenceRetrieverInput) {
    super(fields);
    if (!fields.client) throw new TypeError("CredenceRetriever needs a client");
    if (Boolean(fields.retriever) === Boolean(fields.vectorStore)) {
      throw new TypeError("CredenceRetriever needs one of retriever and vectorStore");
    }
    this.client = fields.client;
    this.retriever = fields.retriever ?? fields.vectorStore!.asRetriever(fields.k);
    this.context = fields.context;
    this.keepUnidentified = fields.keepUnidentified ?? false;
    const sourceId = fields.sourceId ?? "sourceId";
    this.sourceIdOf =
      typeof sourceId === "function"
        ? sourceId
        : (document) => {
            const value: unknown = document.metadata?.[sourceId];
            return typeof value === "string" ? value : undefined;
          };
    this.onFiltered = fields.onFiltered;
  }

  override async _getRelevantDocuments(query: string, runManager?: CallbackManagerForRetrieverRun): Promise<DocumentInterface[]> {
    const candidates = await this.retriever.invoke(query, { callbacks: runManager?.getChild("candidates") });
    const result = await this.client.filterCandidates(candidates, this.sourceIdOf, this.context);
    this.onFiltered?.(result, query);
    const kept = new Map<DocumentInterface, TrustAnnotation>(result.kept.map((c) => [c.item, annotationOf(c)]));
    const unidentified = new Set(this.keepUnidentified ? result.unidentified : []);
    // Input order, so the underlying retriever's ranking stands.
    return candidates.flatMap((document) => {
      const annotation = kept.get(document);
      if (annotation) {
        // A copy: vector stores hand out their stored metadata objects.
        return [new Document({ pageContent: document.pageContent, metadata: { ...document.metadata, [TRUST_METADATA_KEY]: annotation }, id: document.id })];
      }
      return unidentified.has(document) ? [document] : [];
    });
  }
}
