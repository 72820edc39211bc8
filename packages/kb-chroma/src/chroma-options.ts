import { z } from 'zod';
import { StrataError } from '@strata/core';
import { collectionNameFor, COLLECTION_NAME_RULE, isValidCollectionName } from './collection-name.js';

/** How to reach Chroma, and which collection holds this knowledge base. */
export interface ChromaKnowledgeBaseOptions {
  /** The server, e.g. `http://127.0.0.1:8000`. Give either `url` or `host` / `port` / `ssl`. */
  url?: string;
  /** @defaultValue '127.0.0.1' (when `url` is not given) */
  host?: string;
  /** @defaultValue 8000, Chroma's own default (when `url` is not given) */
  port?: number;
  /** @defaultValue false */
  ssl?: boolean;
  /** Chroma tenant; omitted, the server's default tenant. */
  tenant?: string;
  /** Chroma database; omitted, the server's default database. */
  database?: string;
  /** Extra HTTP headers, e.g. an auth token for a secured server or Chroma Cloud. */
  headers?: Record<string, string>;
  /**
   * First part of the derived collection name `<prefix>__<embeddingModel>__<dimensions>`.
   * @defaultValue 'strata'
   */
  collectionPrefix?: string;
  /**
   * Name of the embeddings model (e.g. `HashingEmbeddings#modelName`). It is part of the
   * collection name, so vectors of two models never share a collection.
   */
  embeddingModel: string;
  /** Output size of the embeddings model; also part of the collection name. */
  dimensions: number;
  /** Uses this collection name as is instead of the derived one. */
  collection?: string;
}

const nonEmpty = z.string().min(1);

const optionsSchema = z
  .object({
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an http(s) URL such as http://127.0.0.1:8000' })
      // The client only takes host, port and ssl: a path would be silently dropped.
      .refine((url) => /^https?:\/\/[^/?#]+\/?$/.test(url), { error: 'url must have no path, query or fragment (http://host:port)' })
      .optional(),
    host: nonEmpty.optional(),
    port: z.int().min(1).max(65_535).optional(),
    ssl: z.boolean().optional(),
    tenant: nonEmpty.optional(),
    database: nonEmpty.optional(),
    headers: z.record(z.string(), z.string()).optional(),
    collectionPrefix: nonEmpty.default('strata'),
    embeddingModel: nonEmpty,
    dimensions: z.int().positive(),
    collection: z
      .string()
      .refine(isValidCollectionName, { error: `collection must be ${COLLECTION_NAME_RULE}` })
      .optional(),
  })
  .strict()
  .refine((o) => o.url === undefined || (o.host === undefined && o.port === undefined && o.ssl === undefined), {
    error: 'give either url or host / port / ssl, not both',
  });

/** Everything the factory needs, resolved once from the options. */
export interface ChromaSettings {
  /** For messages: where the server was expected. */
  url: string;
  client: { host: string; port: number; ssl: boolean; tenant?: string; database?: string; headers?: Record<string, string> };
  collection: string;
  embeddingModel: string;
  dimensions: number;
}

/** @throws StrataError CONFIG_INVALID with zod's report when an option is malformed. */
export function parseChromaOptions(options: ChromaKnowledgeBaseOptions): ChromaSettings {
  const result = optionsSchema.safeParse(options);
  if (!result.success) {
    throw new StrataError('CONFIG_INVALID', `Chroma knowledge base options are invalid:\n${z.prettifyError(result.error)}`, {
      hint: "Pass { url: 'http://127.0.0.1:8000', embeddingModel: embeddings.modelName, dimensions: 256 } (see ChromaKnowledgeBaseOptions).",
      cause: result.error,
    });
  }
  const o = result.data;
  const server = o.url === undefined ? serverOf(o.host ?? '127.0.0.1', o.port ?? 8000, o.ssl ?? false) : serverOfUrl(o.url);
  const { tenant, database, headers } = o;
  return {
    url: server.url,
    client: { host: server.host, port: server.port, ssl: server.ssl, ...(tenant && { tenant }), ...(database && { database }), ...(headers && { headers }) },
    collection: o.collection ?? collectionNameFor(o.collectionPrefix, o.embeddingModel, o.dimensions),
    embeddingModel: o.embeddingModel,
    dimensions: o.dimensions,
  };
}

/** The client pastes host into its base URL, so an IPv6 host goes in brackets. */
function serverOf(host: string, port: number, ssl: boolean): { url: string; host: string; port: number; ssl: boolean } {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { url: `${ssl ? 'https' : 'http'}://${bracketed}:${port}`, host: bracketed, port, ssl };
}

function serverOfUrl(url: string): { url: string; host: string; port: number; ssl: boolean } {
  const parsed = new URL(url);
  const ssl = parsed.protocol === 'https:';
  const port = parsed.port === '' ? (ssl ? 443 : 80) : Number(parsed.port);
  return serverOf(parsed.hostname, port, ssl);
}
