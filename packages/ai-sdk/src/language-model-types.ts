import type { LanguageModelMiddleware } from 'ai';

// The language-model specification types, read off `ai`'s own middleware type: the package
// depends on `ai` alone, never on the provider packages `ai` itself depends on.
type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;
type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;

/** The options of one model call (one step of a tool loop). */
export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0]['params'];
/** A model call's prompt: system, user, assistant and tool messages. */
export type Prompt = CallOptions['prompt'];
/** One message of a model call's prompt (system, user, assistant or tool), as the middleware and `query` see it. */
export type PromptMessage = Prompt[number];
/** A prompt message other than a system message: what strata stores as a turn. */
export type TurnMessage = Exclude<PromptMessage, { role: 'system' }>;
export type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
export type ResultContent = GenerateResult['content'][number];
export type StreamResult = Awaited<ReturnType<WrapStream>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
export type LanguageModel = Parameters<WrapGenerate>[0]['model'];
