import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** A Markdown file of the repository, its path relative to the root and its text. */
export interface MarkdownFile {
  path: string;
  text: string;
}

export function readMarkdown(path: string): MarkdownFile {
  return { path, text: readFileSync(join(ROOT, path), 'utf8') };
}

/** The Markdown files under a folder of the repository, recursively, sorted. */
export function markdownUnder(folder: string): MarkdownFile[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) found.push(relative(ROOT, full));
    }
  };
  walk(join(ROOT, folder));
  return found.sort().map(readMarkdown);
}

/** The lines of a Markdown text outside fenced code blocks, with inline code spans blanked. */
function proseLines(text: string): string[] {
  let fenced = false;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push(line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length)));
  }
  return lines;
}

/** The targets of the inline links (`[text](target)`) of a Markdown text, outside code. */
export function linkTargets(text: string): string[] {
  return proseLines(text).flatMap((line) => [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]));
}

/**
 * The anchors GitHub gives the headings of a Markdown text: the heading's text lower-cased,
 * without punctuation (hyphens and underscores kept), spaces as hyphens; a repeated anchor gets
 * -1, -2… Inline code counts by its text.
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
