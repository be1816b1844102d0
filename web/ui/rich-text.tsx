import { createElement, Fragment, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { EditorContent, getSchema, useEditor, useEditorState, type Editor, type JSONContent } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Link } from '@tiptap/extension-link';
import { Bold, Check, Copy, Italic, Link2, List, ListOrdered, Redo2, Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from './button.js';
import { cn } from './cn.js';

/** how long the copy button shows its check mark (spec section 9) */
export const COPY_RESET_MS = 2000;
const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;
const MAX_DEPTH = 64;

/** http(s), mailto, or a relative url starting with a single '/' ('//host' is another site) */
export const isSafeHref = (href: unknown): href is string => typeof href === 'string' && /^(?:https?:\/\/|mailto:|\/(?![/\\]))/i.test(href);

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

const EXTENSIONS = [
  StarterKit.configure({ heading: { levels: [...HEADING_LEVELS] }, link: false, underline: false }),
  Link.configure({ openOnClick: false, isAllowedUri: (url) => isSafeHref(url) }),
];
const SCHEMA = getSchema(EXTENSIONS);

/** the doc the editor can load: the stored doc if the schema accepts it, else its plain text */
export function toEditorDoc(value: string | null | undefined): JSONContent {
  const doc = parseRichText(value);
  try {
    SCHEMA.nodeFromJSON(doc).check();
    return doc;
  } catch {
    return textToDoc(plainText(doc));
  }
}

export type LinkAction = { type: 'none' } | { type: 'unset' } | { type: 'set'; href: string } | { type: 'invalid' };
/** what the Link button does with the prompt's answer: null (cancel) nothing, '' removes the link */
export function linkAction(answer: string | null): LinkAction {
  if (answer === null) return { type: 'none' };
  const href = answer.trim();
  if (href === '') return { type: 'unset' };
  return isSafeHref(href) ? { type: 'set', href } : { type: 'invalid' };
}

/** element styles for rendered rich text (both the editor and the view) */
const PROSE = 'space-y-2 break-words [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:text-lg [&_h4]:font-semibold [&_h5]:font-semibold [&_h6]:text-sm [&_h6]:font-semibold [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-slate-100 [&_pre]:p-3 [&_code]:font-mono [&_code]:text-[0.9em] [&_a]:text-blue-700 [&_a]:underline [&_hr]:border-slate-300';

function ToolButton({ label, pressed, onClick, disabled, children }: { label: string; pressed?: boolean; onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <Button variant="ghost" size="sm" className={cn('px-2', pressed && 'bg-slate-200')} aria-label={label} title={label} aria-pressed={pressed} disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}

/** arrow keys move between the toolbar's buttons */
function onToolbarKeyDown(e: KeyboardEvent<HTMLDivElement>) {
  if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
  const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
  const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (i < 0) return;
  e.preventDefault();
  buttons[(i + (e.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
}

function applyLink(editor: Editor) {
  const action = linkAction(window.prompt('URL', (editor.getAttributes('link').href as string | undefined) ?? ''));
  const chain = editor.chain().focus().extendMarkRange('link');
  if (action.type === 'unset') chain.unsetLink().run();
  else if (action.type === 'invalid') toast.error('Use an http(s), mailto or /relative URL');
  else if (action.type === 'set') {
    if (editor.state.selection.empty && !editor.isActive('link')) chain.insertContent({ type: 'text', text: action.href, marks: [{ type: 'link', attrs: { href: action.href } }] }).run();
    else chain.setLink({ href: action.href }).run();
  }
}

export interface RichTextEditorProps {
  /** id of the editable area */
  id: string;
  /** JSON string of a TipTap doc (plain text is accepted too) */
  value: string | null | undefined;
  /** receives JSON.stringify(editor.getJSON()) */
  onChange: (value: string) => void;
  disabled?: boolean;
  /** accessible name of the editable area */
  label?: string;
}

export function RichTextEditor({ id, value, onChange, disabled, label }: RichTextEditorProps) {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const emitted = useRef<string | undefined>(undefined);
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: toEditorDoc(value),
    editable: !disabled,
    editorProps: {
      attributes: { id, role: 'textbox', 'aria-multiline': 'true', ...(label ? { 'aria-label': label } : {}), class: cn(PROSE, 'min-h-32 px-3 py-2 text-sm focus:outline-none') },
    },
    onUpdate: ({ editor: e }) => {
      emitted.current = JSON.stringify(e.getJSON());
      onChangeRef.current(emitted.current);
    },
  });

  // a value from outside (not the one we just emitted) replaces the content
  useEffect(() => {
    if (value === emitted.current) return;
    const next = toEditorDoc(value);
    if (JSON.stringify(editor.getJSON()) !== JSON.stringify(next)) editor.commands.setContent(next, { emitUpdate: false });
    emitted.current = value ?? undefined;
  }, [editor, value]);

  useEffect(() => editor.setEditable(!disabled, false), [editor, disabled]);

  const s = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      headings: HEADING_LEVELS.map((level) => e.isActive('heading', { level })),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      link: e.isActive('link'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const run = (fn: (c: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => fn(editor.chain().focus()).run();

  return (
    <div className={cn('rounded-md border border-slate-300 bg-white focus-within:border-blue-600 focus-within:ring-2 focus-within:ring-blue-600/20', disabled && 'opacity-50')}>
      <div role="toolbar" aria-label={label ? `${label} formatting` : 'Formatting'} aria-controls={id} onKeyDown={onToolbarKeyDown} className="flex flex-wrap gap-1 border-b border-slate-200 p-1">
        <ToolButton label="Bold" pressed={s.bold} disabled={disabled} onClick={run((c) => c.toggleBold())}><Bold aria-hidden className="h-4 w-4" /></ToolButton>
        <ToolButton label="Italic" pressed={s.italic} disabled={disabled} onClick={run((c) => c.toggleItalic())}><Italic aria-hidden className="h-4 w-4" /></ToolButton>
        {HEADING_LEVELS.map((level, i) => (
          <ToolButton key={level} label={`Heading ${level}`} pressed={s.headings[i]} disabled={disabled} onClick={run((c) => c.toggleHeading({ level }))}>
            <span className="font-mono text-xs">H{level}</span>
          </ToolButton>
        ))}
        <ToolButton label="Bullet list" pressed={s.bullet} disabled={disabled} onClick={run((c) => c.toggleBulletList())}><List aria-hidden className="h-4 w-4" /></ToolButton>
        <ToolButton label="Ordered list" pressed={s.ordered} disabled={disabled} onClick={run((c) => c.toggleOrderedList())}><ListOrdered aria-hidden className="h-4 w-4" /></ToolButton>
        <ToolButton label="Link" pressed={s.link} disabled={disabled} onClick={() => applyLink(editor)}><Link2 aria-hidden className="h-4 w-4" /></ToolButton>
        <ToolButton label="Undo" disabled={disabled || !s.undo} onClick={run((c) => c.undo())}><Undo2 aria-hidden className="h-4 w-4" /></ToolButton>
        <ToolButton label="Redo" disabled={disabled || !s.redo} onClick={run((c) => c.redo())}><Redo2 aria-hidden className="h-4 w-4" /></ToolButton>
        <CopyButton text={plainText(parseRichText(value))} className="ml-auto" />
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}

/** text with its marks, from the allow-list; an unknown mark or an unsafe link leaves the text plain */
function withMarks(text: string, marks: unknown): ReactNode {
  if (!Array.isArray(marks)) return text;
  return marks.reduceRight<ReactNode>((inner, mark) => {
    if (!isObj(mark)) return inner;
    if (mark.type === 'bold') return <strong>{inner}</strong>;
    if (mark.type === 'italic') return <em>{inner}</em>;
    if (mark.type === 'strike') return <s>{inner}</s>;
    if (mark.type === 'code') return <code>{inner}</code>;
    const href = isObj(mark.attrs) ? mark.attrs.href : undefined;
    if (mark.type === 'link' && isSafeHref(href)) {
      return /^https?:/i.test(href) ? <a href={href} target="_blank" rel="noopener noreferrer">{inner}</a> : <a href={href}>{inner}</a>;
    }
    return inner;
  }, text);
}

function renderNode(node: unknown, key: number, depth: number): ReactNode {
  if (!isObj(node) || depth > MAX_DEPTH) return null;
  const children = () => kids(node).map((c, i) => renderNode(c, i, depth + 1));
  const attrs = isObj(node.attrs) ? node.attrs : {};
  switch (node.type) {
    case 'text':
      return typeof node.text === 'string' ? <Fragment key={key}>{withMarks(node.text, node.marks)}</Fragment> : null;
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

/** renders a stored value through an allow-list of node and mark types, never as HTML */
export function RichTextView({ value, className }: { value: string | null | undefined; className?: string }) {
  return <div className={cn(PROSE, className)}>{renderNode(parseRichText(value), 0, 0)}</div>;
}

/** copies the text; the icon turns into a check mark for COPY_RESET_MS */
export function CopyButton({ text, className }: { text: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(text);
    } catch {
      toast.error('Failed to copy text to clipboard');
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_RESET_MS);
    toast.success('Text copied to clipboard');
  };
  return (
    <Button variant="ghost" size="icon" className={className} aria-label={copied ? 'Copied' : 'Copy to clipboard'} title="Copy to clipboard" onClick={() => void copy()}>
      {copied ? <Check aria-hidden data-icon="check" className="h-4 w-4 text-green-600" /> : <Copy aria-hidden data-icon="copy" className="h-4 w-4" />}
    </Button>
  );
}
