import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A small Markdown reader for the portal's static pages: headings (#, ##, ###), paragraphs, lists (- ),
 * **bold** and [links](…). It builds React elements, never HTML, so the text cannot inject markup;
 * links are kept only for http(s), mailto, tel and the portal's own paths.
 */
type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] };

export function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    if (list) blocks.push({ kind: 'list', items: list });
    paragraph = [];
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (!line) flush();
    else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1].length as 1 | 2 | 3, text: heading[2] });
    } else if (item) {
      if (paragraph.length) flush();
      (list ??= []).push(item[1]);
    } else if (list && raw.startsWith('  ')) list[list.length - 1] += ` ${line}`;
    else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

const safeHref = (href: string) => /^(https?:|mailto:|tel:|\/(?!\/))/i.test(href);

function inline(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  const pattern = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const key = `${match.index}`;
    if (match[1] !== undefined) nodes.push(<strong key={key}>{match[1]}</strong>);
    else {
      const [label, href] = [match[2], match[3]];
      if (!safeHref(href)) nodes.push(label);
      else if (href.startsWith('/'))
        nodes.push(
          <Link key={key} to={href}>
            {label}
          </Link>,
        );
      else
        nodes.push(
          <a key={key} href={href} rel="noopener">
            {label}
          </a>,
        );
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

export function Markdown({ source }: { source: string }) {
  return (
    <>
      {parseBlocks(source).map((block, index) => {
        if (block.kind === 'heading') {
          const Tag = `h${block.level}` as const;
          return <Tag key={index}>{inline(block.text)}</Tag>;
        }
        if (block.kind === 'list') {
          return (
            <ul key={index}>
              {block.items.map((item, itemIndex) => (
                <li key={itemIndex}>{inline(item)}</li>
              ))}
            </ul>
          );
        }
        return <p key={index}>{inline(block.text)}</p>;
      })}
    </>
  );
}
