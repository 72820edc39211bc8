import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `
:root { --fg: #1d2330; --dim: #6b7280; --line: #e5e7eb; --accent: #3b5bdb; --in: #2f9e44; --out: #c92a2a; --bg: #fafafa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 1.2rem; align-items: center; padding: .6rem 1rem; background: #fff; border-bottom: 1px solid var(--line); }
header b { font-size: 15px; } header a { color: var(--fg); text-decoration: none; } header a.on { color: var(--accent); font-weight: 600; }
main { padding: 1rem; }
a { color: var(--accent); }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--dim); }
.dim { color: var(--dim); } .in { color: var(--in); font-weight: 600; } .out { color: var(--out); font-weight: 600; }
.cols { display: grid; grid-template-columns: 240px 1fr 360px; gap: 1rem; align-items: start; }
.entity > h2 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; } .named { margin: 0 0 .6rem; } .fact-ref { margin-right: .6rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .7rem; margin-bottom: 1rem; }
.msg { padding: .4rem .6rem; border-radius: 6px; margin: .3rem 0; white-space: pre-wrap; }
.msg.user { background: #e7f0ff; } .msg.assistant { background: #eefbf0; } .msg.system, .msg.tool { background: #f3f3f3; }
.sessions a { display: block; padding: .25rem 0; text-decoration: none; } .sessions a.on { font-weight: 600; }
form.inline { display: flex; gap: .5rem; margin: .5rem 0; } input[type=text], textarea { flex: 1; padding: .4rem; font: inherit; }
.bar { display: flex; height: 18px; border-radius: 4px; overflow: hidden; background: #eee; margin: .4rem 0; }
.bar span { display: block; height: 100%; }
.t-immediate { background: #4dabf7; } .t-session { background: #74c0fc; } .t-working { background: #ffd43b; } .t-long-term { background: #69db7c; } .t-system { background: #adb5bd; }
.legend span { display: inline-block; margin-right: .8rem; } .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
.target { outline: 2px solid var(--accent); }
`;

const PAGES = [
  ['chat', '/chat', 'Chat'],
  ['sessions', '/sessions', 'Sessions'],
  ['facts', '/facts', 'Facts'],
  ['context', '/context', 'Context explorer'],
] as const;
export type PageName = (typeof PAGES)[number][0] | 'session' | 'topics';

/** The page frame: navigation, the namespace, the local scripts (htmx; Mermaid where asked). */
export function layout(title: string, page: PageName, namespace: string, body: Html, options: { mermaid?: boolean } = {}): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · strata</title><style>${raw(STYLE)}</style>
<script src="/assets/htmx.min.js"></script>
${options.mermaid ? html`<script src="/assets/mermaid.min.js"></script><script>mermaid.initialize({ startOnLoad: true, securityLevel: 'strict' });</script>` : ''}
</head><body>
<header><b>strata</b>${PAGES.map(([name, href, label]) => html`<a href="${href}" class="${name === page ? 'on' : ''}">${label}</a>`)}
<span class="dim">namespace ${namespace}</span></header>
<main>${body}</main></body></html>`;
}

/** `2026-10-05 18:03` (UTC). */
export function when(ms: number | undefined): string {
  return ms === undefined ? '' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
