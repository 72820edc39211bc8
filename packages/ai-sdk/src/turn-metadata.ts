/**
 * The key of a stored turn's metadata under which this package keeps the turn's AI SDK form,
 * so that it reads back exactly as it was given:
 * - `{ message }`: a language-model prompt message (user, assistant or tool), stored by the
 *   middleware, its binary file data as `{ [BYTES_KEY]: base64 }`;
 * - `{ ui }`: a chat `UIMessage`, stored by the chat persistence helpers.
 */
export const AI_SDK_KEY = 'aiSdk';
