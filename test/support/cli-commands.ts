import fs from 'node:fs';

/**
 * The AWS CLI commands an engineer is told to run: every `aws …` of docs/operations.md and of the README's deploy
 * section (code blocks and inline code), split into words as a shell would. Shared by the runbook test and the
 * generator of the CLI's operations (test/fixtures/aws-cli/generate.ts).
 */
export interface CliCommand {
  /** Where it is written, and the command as written (for the test's messages). */
  source: string;
  text: string;
  /** `aws <service> <operation>`. */
  service: string;
  operation: string;
  /** The words after the operation: options, their values, positional arguments. */
  words: string[];
}

export const COMMAND_SOURCES = ['docs/operations.md', 'README.md'] as const;

/** The README's part an engineer runs commands from: "Deploying to AWS", up to the next top-level section. */
function sectionOf(source: string, text: string): string {
  if (source !== 'README.md') return text;
  const start = text.indexOf('\n## Deploying to AWS');
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** Split a command line as a shell would: quotes group, a backslash escapes inside double quotes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && c === '\\' && i + 1 < line.length) word = (word ?? '') + line[++i];
      else word = (word ?? '') + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Where a command ends: the end of its code span (which may wrap) or of its line in a code block, a pipe, a
 * redirection, `&&`, a comment, or the `)` closing the `$(` it was written in.
 */
function commandAt(text: string, from: number, inline: boolean): string {
  let depth = 0;
  let quote: string | undefined;
  let end = from;
  for (; end < text.length; end += 1) {
    const c = text[end]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\') end += 1;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '`' || (c === '\n' && !inline && text[end - 1] !== '\\')) break;
    else if (/[|>#]/.test(c) && /\s/.test(text[end - 1]!)) break;
    else if (c === '&' && text[end + 1] === '&') break;
    else if (c === '(' && text[end - 1] === '$') depth += 1;
    else if (c === ')' && depth-- === 0) break;
  }
  return text.slice(from, end).replace(/\\?\n\s*/g, ' ');
}

/** A placeholder (`<the plan's role ARN>`) made one word without quotes, as the engineer's value will be. */
const oneWord = (text: string) =>
  text.replace(/<[^<>\n]*>/g, (placeholder) => placeholder.replace(/\s+/g, '_').replace(/['"]/g, ''));

export function cliCommands(): CliCommand[] {
  const commands: CliCommand[] = [];
  for (const source of COMMAND_SOURCES) {
    const text = oneWord(sectionOf(source, fs.readFileSync(source, 'utf8')));
    // Inside a code block a command ends at its line (or its continuation); inline, at the closing backtick too.
    let inBlock = false;
    let offset = 0;
    for (const line of text.split('\n')) {
      if (line.trimStart().startsWith('```')) inBlock = !inBlock;
      for (const match of line.matchAll(/(?<![\w-])aws [a-z0-9-]+ [a-z0-9-]+/g)) {
        const written = commandAt(text, offset + match.index, !inBlock);
        const [, service, operation, ...words] = shellWords(written);
        commands.push({ source, text: written.trim(), service: service!, operation: operation!, words });
      }
      offset += line.length + 1;
    }
  }
  return commands;
}
