/// <reference lib="dom" />
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import { requireService, startOpenAiStub, type ChatCompletionRequest, type RecordedRequest } from '@strata/testkit';
import { createSandbox, root, runCli, startCli } from './support/cli.js';

/** Debian's chromium (scripts/services.sh installs it); STRATA_CHROMIUM names another. */
const CHROMIUM = process.env.STRATA_CHROMIUM ?? '/usr/bin/chromium';
const skipReason = await requireService('Chromium', async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is not installed (apt-get install chromium, or bash scripts/services.sh up)`);
});
/** STRATA_UPDATE_SCREENSHOTS=1 writes the screenshots to docs/ (for the README); else to the sandbox. */
const sandbox = createSandbox('ui');
const shots = process.env.STRATA_UPDATE_SCREENSHOTS === '1' ? join(root, 'docs') : join(sandbox.dir, 'shots');

let browser: Browser;
let page: Page;
let ui: ReturnType<typeof startCli>;
let url: URL;
const demoFile = join(sandbox.dataDir, 'demo.sqlite');

/** A page of the app, after the token cookie is set. */
const open = async (path: string): Promise<void> => void (await page.goto(new URL(path, url).href));
const shot = async (name: string): Promise<void> => void (await page.screenshot({ path: join(shots, `ui-${name}.png`), fullPage: true }));
async function withLibrary<T>(read: (memory: Memory) => Promise<T>): Promise<T> {
  const memory = await createMemory({ store: await createSqliteSessionStore({ path: demoFile }), knowledge: await createSqliteKnowledgeBase({ path: demoFile }) });
  try {
    return await read(memory);
  } finally {
    await memory.close();
  }
}

/** A count as strata shows it: `1,562`. */
const n = (count: number): string => count.toLocaleString('en-US');

/** The tokens the stub reported in its answers to `requests`. */
function reportedUsage(requests: RecordedRequest[]): { inputTokens: number; outputTokens: number; calls: number } {
  const total = { inputTokens: 0, outputTokens: 0, calls: requests.length };
  for (const r of requests) {
    const { usage } = r.response as { usage: { prompt_tokens: number; completion_tokens: number } };
    total.inputTokens += usage.prompt_tokens;
    total.outputTokens += usage.completion_tokens;
  }
  return total;
}

/** The session page over HTTP, once derivation has settled with usage reported (it runs in the background of a chat turn). */
async function pageOnceDerived(sessionUrl: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    const response = await fetch(sessionUrl);
    expect(response.status).toBe(200);
    const html = await response.text();
    if ((html.includes('id="usage-session"') && html.includes('jobs pending 0 ·')) || tries === 100) return html;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(skipReason !== null)(`strata ui in a real browser${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    expect((await runCli(['demo'], { env: sandbox.env })).code).toBe(0);
    ui = startCli(['ui', '--demo', '--port', '0'], sandbox.env);
    await ui.waitFor(/strata ui: \S*http:\/\/127\.0\.0\.1:\d+\/chat\?token=[\w-]+/);
    url = new URL(/http:\/\/127\.0\.0\.1:\d+\/chat\?token=[\w-]+/.exec(ui.output())![0]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1360, height: 860 }, acceptDownloads: true });
    await page.goto(url.href);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    ui?.child.kill('SIGINT');
    await ui?.exited;
    sandbox.dispose();
  });

  it('refuses a request without the token, or with a wrong one', async () => {
    for (const path of ['/chat', '/sessions', '/facts', '/context', '/chat?token=wrong', '/assets/htmx.min.js']) {
      const response = await fetch(new URL(path, url.origin));
      expect(response.status, path).toBe(401);
      expect(await response.text()).toMatch(/missing or wrong access token/);
    }
  });

  it('renders every page: chat, sessions, a session timeline, facts, context explorer, topics (Mermaid, local)', async () => {
    expect(await page.locator('#chat input#text').count()).toBe(1);
    expect(await page.locator('.sessions a[data-session]').count()).toBe(2);
    await shot('chat');
    await open('/sessions');
    expect(await page.locator('#sessions tr').count()).toBe(3); // header + the demo's two sessions
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text puts whitespace between table cells (textContent would read "maya2")
    expect(await page.locator('#namespaces').innerText()).toMatch(/maya\s+2/);
    await shot('sessions');
    const sessionId = await withLibrary(async (m) => (await m.sessions.list({ namespace: 'maya' })).find((s) => s.title === 'First chat')!.id);
    await open(`/sessions/${sessionId}`);
    expect(await page.locator('#turns tr.turn').count()).toBe(16);
    expect(await page.locator('#summaries tr').count()).toBeGreaterThan(1);
    expect(await page.locator('a.fact-link', { hasText: 'Lisbon' }).count()).toBeGreaterThan(0);
    expect(await page.locator('#pending').textContent()).toMatch(/jobs pending \d+ · summarized through seq \d+/);
    // the demo derives on the offline models: one line, no table, no namespace total
    expect(await page.locator('#usage-none').textContent()).toBe('no model calls: derivation ran on the offline models');
    expect(await page.locator('#usage-session, #usage-namespace').count()).toBe(0);
    await shot('session');
    await open('/facts');
    expect(await page.locator('tr.fact', { hasText: 'Porto' }).textContent()).toMatch(/current/);
    expect(await page.locator('tr.fact', { hasText: 'Lisbon' }).textContent()).toMatch(/superseded/);
    // slots are named in words: an observation's slot by its statement's words, not its stems
    const slotNames = await page.locator('.slot > b').allTextContents();
    expect(slotNames.filter((name) => name.includes('observation:'))).toEqual([]);
    expect(slotNames.filter((name) => /^user · [a-z]+( [a-z]+){3,}$/.test(name)).length).toBeGreaterThan(0);
    // facts tell the user by the name she gave, and "we" as the sister she named, not "User and others"
    const values = await page.locator('tr.fact').allTextContents();
    expect(values.filter((value) => /\bUser\b/.test(value) && !value.includes("User's name is Maya"))).toEqual([]);
    expect(values.some((value) => value.includes('Maya and Ana'))).toBe(true);
    // grouped by entity: the user by her name first, with her slots; then who and what the facts name, linked to those facts
    const entities = await page.locator('section.entity').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-entity')));
    expect(entities[0]).toBe('Maya');
    expect(entities).toEqual(expect.arrayContaining(['Ana', 'Porto', 'Lisbon']));
    // what each is, as the slots say
    expect(await page.locator('section.entity[data-entity="Porto"]').getAttribute('data-kind')).toBe('place');
    expect(await page.locator('section.entity[data-entity="Nimbus"]').getAttribute('data-kind')).toBe('organisation');
    expect(await page.locator('section.entity[data-entity="Maya"] tr.fact').count()).toBe(values.length);
    const lisbon = page.locator('section.entity[data-entity="Lisbon"] a.fact-ref');
    expect(await lisbon.allTextContents()).toEqual(['Maya lives in Lisbon.']);
    expect(await page.locator(`#${await lisbon.getAttribute('href').then((href) => href?.slice(1))}`).textContent()).toMatch(/superseded/);
    expect(await page.locator('section.entity[data-entity="Ana"] a.fact-ref', { hasText: 'Maya and Ana' }).count()).toBe(1);
    await shot('facts');
    await open(`/sessions/${sessionId}/topics`);
    await page.locator('#diagram svg').waitFor({ timeout: 30_000 });
    await shot('topics');
  });

  it("a chat turn in the browser is stored, and the next turn's context panel shows it", async () => {
    await open('/chat');
    const send = async (text: string): Promise<void> => {
      await page.fill('#text', text);
      await page.press('#text', 'Enter');
      await page.waitForFunction(() => document.querySelectorAll('#messages .msg.assistant').length > 0 && !document.querySelector('#messages [data-streaming]'));
      await page.locator('#context-items').waitFor();
    };
    await send('I adopted a grey cat named Pixel.');
    const sessionId = new URL(page.url()).searchParams.get('session')!;
    expect(sessionId).toMatch(/^ses_/);
    const stored = await withLibrary((m) => m.messages(sessionId));
    expect(stored.map((m) => m.content)).toEqual(['I adopted a grey cat named Pixel.']);
    await send('What is my cat called?');
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text puts whitespace between table cells, which /immediate\s+turn/ relies on
    const panel = await page.locator('#context-panel').innerText();
    expect(panel).toMatch(/immediate\s+turn/);
    await page.locator('#context-panel details').evaluate((d) => ((d as HTMLDetailsElement).open = true));
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text of a <details> holds its content only once opened, which is what this checks
    expect(await page.locator('#context-panel details').innerText()).toMatch(/I adopted a grey cat named Pixel\./);
    await shot('chat-turn');
  });

  it('export downloads a file that strata import accepts', async () => {
    await page.reload(); // the chat's session, now stored, with its export links
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    const file = join(sandbox.dir, 'exported.json');
    await download.saveAs(file);
    const imported = await runCli(['import', file, '--json'], { env: { ...sandbox.env, STRATA_DATA_DIR: join(sandbox.dir, 'imported') } });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ sessions: 1, messages: 2 });
  });

  it('the context explorer shows the manifest getContext gives for the same query and budget', async () => {
    const sessionId = await withLibrary(async (m) => (await m.sessions.list({ namespace: 'maya' })).find((s) => s.title === 'Three weeks later')!.id);
    await open(`/context?session=${sessionId}&q=${encodeURIComponent('Where does Maya live now?')}&budget=600`);
    const rows = await page.locator('#manifest tr[data-id]').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-id'), tr.getAttribute('data-included')]));
    const expected = await withLibrary(async (m) =>
      (await m.getContext(sessionId, { query: 'Where does Maya live now?', budgetTokens: 600, touch: false })).manifest.map((i) => [i.id, String(i.included)]),
    );
    expect(rows).toEqual(expected);
    expect(await page.locator('#used').textContent()).toMatch(/^\d+$/);
    expect(await page.locator('#budget-bar span').count()).toBeGreaterThan(1);
    await shot('context');
  });

  it('forget asks for confirmation, then removes the fact from every page', async () => {
    await open('/facts');
    const porto = page.locator('tr.fact', { hasText: 'Porto' });
    const factId = (await porto.getAttribute('data-id'))!;
    page.once('dialog', (dialog) => void dialog.dismiss());
    await porto.locator('button').click();
    await page.waitForTimeout(300);
    expect(await page.locator(`#f-${factId}`).count()).toBe(1); // dismissed: still there
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toMatch(/Forget the fact "Maya lives in Porto\."\? The \d+ turn\(s\) it came from are forgotten with it/);
      void dialog.accept();
    });
    await Promise.all([page.waitForURL(/\/facts/), porto.locator('button').click()]);
    await page.waitForFunction((id) => !document.getElementById(`f-${id}`), factId);
    const sessions = await withLibrary((m) => m.sessions.list({ namespace: 'maya' }));
    for (const s of sessions) {
      await open(`/sessions/${s.id}`);
      expect(await page.locator('a.fact-link', { hasText: 'Porto' }).count()).toBe(0);
      await open(`/context?session=${s.id}&q=Porto&budget=2000`);
      expect(await page.locator(`#manifest tr[data-id="${factId}"]`).count()).toBe(0);
    }
    expect(await withLibrary(async (m) => (await m.facts.list({ namespace: 'maya', includeSuperseded: true })).some((f) => f.id === factId))).toBe(false);
  });

  it('with an LLM configured, the reply streams into the page as the model writes it, and is stored', async () => {
    // summaries and facts are asked for with a tool; a plain request is the chat turn
    const stub = await startOpenAiStub({
      chat: (request: ChatCompletionRequest) => {
        const tool = request.tools?.[0]?.function.name;
        if (tool === 'summary' || tool === 'synopsis') return { toolCalls: [{ name: tool, args: { [tool]: 'A summary.' } }] };
        if (tool) return { toolCalls: [{ name: tool, args: { facts: [] } }] };
        return 'Pixel is a lovely name for a grey cat.';
      },
      streamDelayMs: 40,
    });
    const box = createSandbox('ui-llm');
    const llmUi = startCli(['ui', '--port', '0'], { ...box.env, STRATA_LLM_BASE_URL: `${stub.url}/v1`, STRATA_LLM_MODEL: 'stub', OPENAI_API_KEY: 'sk-test' });
    try {
      await llmUi.waitFor(/http:\/\/127\.0\.0\.1:\d+\/chat\?token=[\w-]+/);
      const llmUrl = /http:\/\/127\.0\.0\.1:\d+\/chat\?token=[\w-]+/.exec(llmUi.output())![0];
      const llmPage = await browser.newPage();
      await llmPage.goto(llmUrl);
      await llmPage.fill('#text', 'My cat is called Pixel.');
      await llmPage.press('#text', 'Enter');
      // mid-stream: part of the reply is on the page while the bubble is still streaming
      await llmPage.waitForFunction(() => {
        const bubble = document.querySelector('#messages .msg.assistant[data-streaming]');
        const text = bubble?.lastChild?.textContent ?? '';
        return text.length > 0 && text !== 'Pixel is a lovely name for a grey cat.';
      });
      await llmPage.waitForFunction(() => !document.querySelector('#messages [data-streaming]'));
      expect(await llmPage.locator('#messages .msg.assistant').textContent()).toMatch(/Pixel is a lovely name for a grey cat\./);
      const chat = stub.requests.map((r) => r.body as ChatCompletionRequest).filter((b) => !b.tools?.length);
      expect(chat.at(-1)?.stream).toBe(true);
      const sessionId = new URL(llmPage.url()).searchParams.get('session')!;
      await llmPage.goto(new URL(`/sessions/${sessionId}`, llmUrl).href);
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text puts whitespace between table cells, which /assistant\s+Pixel/ relies on
      expect(await llmPage.locator('#turns').innerText()).toMatch(/assistant\s+Pixel is a lovely name for a grey cat\./);

      // what derivation cost: the tokens the stub reported to strata's extractor (its tool requests)
      const sessionUrl = new URL(`/sessions/${sessionId}?token=${new URL(llmUrl).searchParams.get('token')}`, llmUrl).href;
      const html = await pageOnceDerived(sessionUrl);
      await stub.settled();
      // the derivation jobs' calls (fact extraction, summaries): thread selection and the chat turn are not jobs
      const expected = reportedUsage(stub.requests.filter((r) => ['facts', 'summary', 'synopsis'].includes((r.body as ChatCompletionRequest).tools?.[0]?.function.name ?? '')));
      expect(expected.calls).toBeGreaterThan(0);
      const cells = `<td>${n(expected.inputTokens)}</td><td>${n(expected.outputTokens)}</td><td>${expected.calls}</td>`;
      expect(html).toContain(`<td>job type</td><td>ingest</td>${cells}`);
      expect(html).toContain(`<td>model</td><td>stub</td>${cells}`);
      expect(html).toMatch(new RegExp(`<p id="usage-namespace">namespace \\S+: ${n(expected.inputTokens)} tokens in, ${n(expected.outputTokens)} out, ${expected.calls} calls? over 1 session</p>`));
      expect(html).not.toContain('no model calls');
      await llmPage.goto(sessionUrl);
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text puts whitespace between table cells, which the patterns rely on
      const usage = await llmPage.locator('#usage').innerText();
      expect(usage).toMatch(new RegExp(`job type\\s+ingest\\s+${n(expected.inputTokens)}\\s+${n(expected.outputTokens)}\\s+${expected.calls}`));
      expect(usage).toMatch(/model\s+stub\s+[\d,]+/);
      expect(await llmPage.locator('#usage-session tr[data-by="model"]').getAttribute('data-name')).toBe('stub');
      await llmPage.close();
    } finally {
      llmUi.child.kill('SIGINT');
      await llmUi.exited;
      await stub.close();
      box.dispose();
    }
  });
});
