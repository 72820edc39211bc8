import type { Topic, TurnLink } from '../../domain/topic.js';

export interface MermaidTurn {
  id: string;
  seq: number;
  role: string;
  content: string;
}

/**
 * A session's conversation tree as a Mermaid flowchart: one node per turn (`#seq role: text`),
 * an edge from each turn to the turn it follows, one subgraph per topic (cold topics marked).
 * Turns without a link (not ingested yet) are left out.
 */
export function renderMermaid(turns: readonly MermaidTurn[], links: readonly TurnLink[], topics: readonly Topic[], maxLabelChars = 48): string {
  const byId = new Map(turns.map((t) => [t.id, t]));
  const node = new Map(links.map((l) => [l.messageId, `t${l.seq}`]));
  const out = ['flowchart TD'];
  for (const topic of topics) {
    const members = links.filter((l) => l.topicId === topic.id && byId.has(l.messageId));
    if (members.length === 0) continue;
    const cold = topic.coldSince === undefined ? '' : ' (cold)';
    out.push(`  subgraph ${topicNode(topic)}["${escapeLabel(topic.title, maxLabelChars)}${cold}"]`);
    for (const link of members) {
      const turn = byId.get(link.messageId);
      if (turn) out.push(`    ${node.get(link.messageId) ?? ''}["#${turn.seq} ${turn.role}: ${escapeLabel(turn.content, maxLabelChars)}"]`);
    }
    out.push('  end');
  }
  for (const link of links) {
    const from = link.parentId === null ? undefined : node.get(link.parentId);
    const to = node.get(link.messageId);
    if (from && to && byId.has(link.messageId)) out.push(`  ${from} --> ${to}`);
  }
  const coldTopics = topics.filter((t) => t.coldSince !== undefined).map(topicNode);
  if (coldTopics.length) out.push('  classDef cold fill:#eef,stroke:#99a,color:#557', `  class ${coldTopics.join(',')} cold`);
  return `${out.join('\n')}\n`;
}

function topicNode(topic: Topic): string {
  return `topic_${topic.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** One line, at most `max` characters, without the characters Mermaid labels cannot hold. */
function escapeLabel(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = line.length <= max ? line : `${line.slice(0, max - 1)}…`;
  // '#' first: Mermaid reads #name; and #123; in a label as entities, so a typed one must not become one
  return cut
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/[<>[\]{}|]/g, ' ');
}
