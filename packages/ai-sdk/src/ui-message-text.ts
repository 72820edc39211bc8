import type { UIMessage } from 'ai';

type UIPart = UIMessage['parts'][number];
type ToolPart = Extract<UIPart, { toolCallId: string }>;

/** A message's readable text: its text parts, one line per tool call, file and source; never empty. */
export function uiMessageText(message: UIMessage): string {
  const text = message.parts
    .map(partText)
    .filter((line) => line !== '')
    .join('\n')
    .trim();
  if (text !== '') return text;
  return message.parts.length ? `[${message.parts.map((part) => part.type).join(', ')}]` : `[empty ${message.role} message]`;
}

function partText(part: UIPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'file':
      return `[file${part.filename ? ` ${part.filename}` : ''} (${part.mediaType})]`;
    case 'source-url':
      return `[source${part.title ? ` ${part.title}` : ''} ${part.url}]`;
    case 'source-document':
      return `[source ${part.title}${part.filename ? ` (${part.filename})` : ''}]`;
    case 'dynamic-tool':
      return toolLine(part.toolName, part);
    default:
      return part.type.startsWith('tool-') ? toolLine(part.type.slice(5), part as ToolPart) : '';
  }
}

/** `[tool name(input) → output]`, input and output as JSON cut to 200 characters. */
function toolLine(name: string, part: ToolPart): string {
  const call = `${name}(${clip(part.input === undefined ? '' : JSON.stringify(part.input))})`;
  switch (part.state) {
    case 'output-available':
      return `[tool ${call} → ${clip(JSON.stringify(part.output) ?? '')}]`;
    case 'output-error':
      return `[tool ${call} → error: ${clip(part.errorText)}]`;
    case 'output-denied':
      return `[tool ${call} → denied${part.approval.reason ? `: ${clip(part.approval.reason)}` : ''}]`;
    case 'approval-requested':
      return `[tool ${call} awaiting approval]`;
    case 'approval-responded':
      return `[tool ${call} ${part.approval.approved ? 'approved' : 'denied'}]`;
    default:
      return `[tool ${call}]`;
  }
}

/** At most `max` code points of `text` (a surrogate pair is never cut). */
function clip(text: string, max = 200): string {
  let out = '';
  let count = 0;
  for (const char of text) {
    if (count === max) return `${out}…`;
    out += char;
    count += 1;
  }
  return out;
}
