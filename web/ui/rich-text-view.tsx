import { createContext, createElement, Fragment, useContext, type ReactNode } from 'react';
import type { JSONContent } from '@tiptap/react';
import { cn } from './cn.js';
import { isSafeLink } from '../../engine/links.js';
import { keptBy } from '../../runtime/kept.js';

const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;
const MAX_DEPTH = 64;

/** the class of rich text as shown: its look (headings, lists, quotes, code, links) is in web/styles.css */
export const PROSE = 'rich-text';

/** the one allow-list of link targets (engine/links.ts), shared with every url field of the manifests */
export const isSafeHref = isSafeLink;

const EMPTY_DOC: JSONContent = { type: 'doc', content: [{ type: 'paragraph' }] };
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const kids = (node: Record<string, unknown>): unknown[] => (Array.isArray(node.content) ? node.content : []);

/** a doc of paragraphs holding the text as plain text, one per line */
export function textToDoc(text: string): JSONContent {
  if (text === '') return EMPTY_DOC;
  return { type: 'doc', content: text.split(/\r?\n/).map((line) => (line ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph' })) };
}

/** a stored value (JSON of a TipTap doc) as a doc; invalid JSON, non-doc JSON or plain text become paragraphs */
export function parseRichText(value: string | null | undefined): JSONContent {
  if (!value) return EMPTY_DOC;
  try {
    const parsed: unknown = JSON.parse(value);
    if (isObj(parsed) && parsed.type === 'doc' && (parsed.content === undefined || Array.isArray(parsed.content))) return parsed as JSONContent;
  } catch {
    /* not JSON: plain text */
  }
  return textToDoc(value);
}

/** the text of a node; blocks are separated by newlines */
export function plainText(node: unknown, depth = 0): string {
  if (!isObj(node) || depth > MAX_DEPTH) return '';
  if (typeof node.text === 'string') return node.text;
  if (node.type === 'hardBreak') return '\n';
  const children = kids(node);
  const inline = children.some((c) => isObj(c) && (typeof c.text === 'string' || c.type === 'hardBreak'));
  return children.map((c) => plainText(c, depth + 1)).join(inline ? '' : '\n');
}

/**
 * The plain text of a stored value (what `plainText(parseRichText(value))` gives), kept by the value like the drawn
 * tree: widgets ask it of the same texts on every render (is there any text, the first line as an excerpt).
 */
const plainOf = keptBy(500, (value: string) => plainText(parseRichText(value)));
export function richTextPlain(value: string | null | undefined): string {
  return value ? plainOf(value) : '';
}

/**
 * How the page writes an internal link (the storefront prefixes it with the page's language, spec §2: '/ecommerce'
 * on a /ru page is '/ru/ecommerce'); `key` names the rule, so that drawn trees are kept per rule. Outside a page
 * (the admin) links are drawn as stored.
 */
export interface LinkRule {
  key: string;
  href(url: string): string;
}
const AS_STORED: LinkRule = { key: '', href: (url) => url };
export const LinkRuleContext = createContext<LinkRule>(AS_STORED);

/** text with its marks, from the allow-list; an unknown mark or an unsafe link leaves the text plain */
function withMarks(text: string, marks: unknown, links: LinkRule): ReactNode {
  if (!Array.isArray(marks)) return text;
  return marks.reduceRight<ReactNode>((inner, mark) => {
    if (!isObj(mark)) return inner;
    if (mark.type === 'bold') return <strong>{inner}</strong>;
    if (mark.type === 'italic') return <em>{inner}</em>;
    if (mark.type === 'strike') return <s>{inner}</s>;
    if (mark.type === 'code') return <code>{inner}</code>;
    const href = isObj(mark.attrs) ? mark.attrs.href : undefined;
    if (mark.type === 'link' && isSafeHref(href)) {
      return /^https?:/i.test(href) ? <a href={href} target="_blank" rel="noopener noreferrer">{inner}</a> : <a href={links.href(href)}>{inner}</a>;
    }
    return inner;
  }, text);
}

function renderNode(node: unknown, key: number, depth: number, links: LinkRule = AS_STORED): ReactNode {
  if (!isObj(node) || depth > MAX_DEPTH) return null;
  const children = () => kids(node).map((c, i) => renderNode(c, i, depth + 1, links));
  const attrs = isObj(node.attrs) ? node.attrs : {};
  switch (node.type) {
    case 'text':
      return typeof node.text === 'string' ? <Fragment key={key}>{withMarks(node.text, node.marks, links)}</Fragment> : null;
    case 'doc': return <Fragment key={key}>{children()}</Fragment>;
    case 'paragraph': return <p key={key}>{children()}</p>;
    case 'heading': {
      const level = attrs.level;
      return createElement(typeof level === 'number' && HEADING_LEVELS.includes(level as 1) ? `h${level}` : 'p', { key }, children());
    }
    case 'bulletList': return <ul key={key}>{children()}</ul>;
    case 'orderedList': {
      const start = Number.isInteger(attrs.start) ? (attrs.start as number) : undefined;
      return <ol key={key} start={start}>{children()}</ol>;
    }
    case 'listItem': return <li key={key}>{children()}</li>;
    case 'blockquote': return <blockquote key={key}>{children()}</blockquote>;
    case 'codeBlock': return <pre key={key}><code>{children()}</code></pre>;
    case 'hardBreak': return <br key={key} />;
    case 'horizontalRule': return <hr key={key} />;
    default: {
      const text = plainText(node, depth);
      return text ? <Fragment key={key}>{text}</Fragment> : null;
    }
  }
}

/** renders a stored value through an allow-list of node and mark types, never as HTML; internal links by the page's rule */
export function RichTextView({ value, className }: { value: string | null | undefined; className?: string }) {
  const links = useContext(LinkRuleContext);
  return <div className={cn(PROSE, className)}>{drawn(value, links)}</div>;
}

/**
 * The drawn tree of a stored value, kept by the value (per link rule: one per language): React elements never change
 * once made, so the same text drawn again (every render of a page, every card of a list) is parsed and walked once.
 * Bounded: cleared when full.
 */
const drawnBy = new Map<string, (value: string) => ReactNode>();
function drawn(value: string | null | undefined, links: LinkRule = AS_STORED): ReactNode {
  if (!value) return renderNode(EMPTY_DOC, 0, 0);
  let drawnOf = drawnBy.get(links.key);
  if (!drawnOf) {
    if (drawnBy.size >= 16) drawnBy.clear();
    drawnBy.set(links.key, (drawnOf = keptBy(500, (v: string): ReactNode => renderNode(parseRichText(v), 0, 0, links))));
  }
  return drawnOf(value);
}
