import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { EditorContent, getSchema, useEditor, useEditorState, type Editor, type JSONContent } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Link } from '@tiptap/extension-link';
import { Bold, Check, Copy, Italic, Link2, List, ListOrdered, Redo2, Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from './button.js';
import { cn } from './cn.js';
import { PROSE, isSafeHref, parseRichText, plainText, textToDoc, RichTextView } from './rich-text-view.js';

// the view needs no editor: pages import it from rich-text-view.js without TipTap
export { isSafeHref, parseRichText, plainText, textToDoc, RichTextView };

/** how long the copy button shows its check mark (spec section 9) */
export const COPY_RESET_MS = 2000;
const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;

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

/** internal links (relative, same-site) open in the same tab; other http(s) links in a new one */
const targetOf = (href: string) => (/^https?:/i.test(href) ? '_blank' : null);

function runLinkAction(editor: Editor, action: LinkAction): boolean {
  const chain = editor.chain().focus().extendMarkRange('link');
  if (action.type === 'unset') chain.unsetLink().run();
  else if (action.type === 'invalid') return false;
  else if (action.type === 'set') {
    const attrs = { href: action.href, target: targetOf(action.href) };
    if (editor.state.selection.empty && !editor.isActive('link')) chain.insertContent({ type: 'text', text: action.href, marks: [{ type: 'link', attrs }] }).run();
    else chain.setLink(attrs).run();
  }
  return true;
}

const LINK_ERROR = 'Use an http(s), mailto or /relative URL';

function applyLink(editor: Editor) {
  const action = linkAction(window.prompt('URL', (editor.getAttributes('link').href as string | undefined) ?? ''));
  if (!runLinkAction(editor, action)) toast.error(LINK_ERROR);
}

/** the inline link editor: the current url to edit, Apply (an empty url removes the link), Remove, Cancel */
function LinkEditor({ editor, id, onClose }: { editor: Editor; id: string; onClose: () => void }) {
  const current = (editor.getAttributes('link').href as string | undefined) ?? '';
  const [url, setUrl] = useState(current);
  const [error, setError] = useState(false);
  const apply = (answer: string) => {
    if (!runLinkAction(editor, linkAction(answer))) return setError(true);
    onClose();
  };
  return (
    <div
      data-escape-layer=""
      role="group"
      aria-label="Link"
      className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 p-2"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
          editor.commands.focus();
        }
      }}
    >
      <label htmlFor={`${id}-link-url`} className="text-xs font-medium text-slate-700">URL</label>
      <input
        id={`${id}-link-url`}
        autoFocus
        value={url}
        placeholder="https://… or /page"
        aria-invalid={error || undefined}
        aria-describedby={error ? `${id}-link-error` : undefined}
        className={cn('h-8 min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 text-sm focus:border-blue-600 focus:outline-none', error && 'border-red-600')}
        onChange={(e) => {
          setUrl(e.target.value);
          setError(false);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          apply(url);
        }}
      />
      <Button size="sm" variant="primary" onClick={() => apply(url)}>Apply</Button>
      {current && <Button size="sm" variant="outline" onClick={() => apply('')}>Remove link</Button>}
      <Button size="sm" variant="ghost" onClick={() => { onClose(); editor.commands.focus(); }}>Cancel</Button>
      {error && <p id={`${id}-link-error`} className="w-full text-xs text-red-700">{LINK_ERROR}</p>}
    </div>
  );
}

/** a JSON value as text with every object's keys in one order, so that two spellings of one document compare equal */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );

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
  /** 'inline': the Link button opens an editor inside the toolbar instead of the browser's prompt */
  linkEditor?: 'prompt' | 'inline';
}

export function RichTextEditor({ id, value, onChange, disabled, label, linkEditor = 'prompt' }: RichTextEditorProps) {
  const [editingLink, setEditingLink] = useState(false);
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

  // a value from outside (not the one we just emitted) replaces the content. The documents are compared with their
  // keys in one order: a doc another client wrote ("text" before "marks") is the same document, not new content. An
  // editor useEditor has already replaced (destroyed: its commands are gone) is left alone; its successor was made
  // with the value as content
  useEffect(() => {
    if (value === emitted.current || editor.isDestroyed) return;
    const next = toEditorDoc(value);
    if (canonicalJson(editor.getJSON()) !== canonicalJson(next)) editor.commands.setContent(next, { emitUpdate: false });
    emitted.current = value ?? undefined;
  }, [editor, value]);

  useEffect(() => {
    if (!editor.isDestroyed) editor.setEditable(!disabled, false);
  }, [editor, disabled]);

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
        <ToolButton label="Link" pressed={s.link} disabled={disabled} onClick={() => (linkEditor === 'inline' ? setEditingLink(!editingLink) : applyLink(editor))}><Link2 aria-hidden className="h-4 w-4" /></ToolButton>
        <ToolButton label="Undo" disabled={disabled || !s.undo} onClick={run((c) => c.undo())}><Undo2 aria-hidden className="h-4 w-4" /></ToolButton>
        <ToolButton label="Redo" disabled={disabled || !s.redo} onClick={run((c) => c.redo())}><Redo2 aria-hidden className="h-4 w-4" /></ToolButton>
        <CopyButton text={plainText(parseRichText(value))} className="ml-auto" />
      </div>
      {editingLink && !disabled && <LinkEditor editor={editor} id={id} onClose={() => setEditingLink(false)} />}
      <EditorContent editor={editor} />
    </div>
  );
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
