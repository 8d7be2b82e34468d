import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/** Markdown as HTML (GitHub flavour, line breaks kept), sanitised: raw HTML in the source can't run scripts. */
export function renderMarkdown(source: string): string {
  return DOMPurify.sanitize(marked.parse(source, { async: false, gfm: true, breaks: true }));
}

/** The rendered preview (its own chunk: marked and DOMPurify load when a preview is first shown). */
export default function MarkdownPreview({ source, empty }: { source: string; empty: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  if (!source.trim()) return <p style={{ opacity: 0.55, margin: 0 }}>{empty}</p>;
  return <div className="tessera-markdown" data-testid="markdown-preview" dangerouslySetInnerHTML={{ __html: html }} />;
}
