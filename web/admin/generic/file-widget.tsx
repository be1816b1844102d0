import { useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { FileText, Upload } from 'lucide-react';
import { Button } from '../../ui/button.js';
import { Input } from '../../ui/input.js';
import type { FormContext } from './widgets.js';

export const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg)(?:[?#].*)?$/i;
const VIDEO = /\.(mp4|webm|mov|m4v)(?:[?#].*)?$/i;

/** a stored file's address: https urls and absolute paths as they are, a bare stored name under /files/ */
export const fileHref = (v: string) => (/^(https?:|\/)/i.test(v) ? v : `/files/${v}`);

/** a small preview of a file field's value: the image, a video frame, or a document icon */
export function FilePreview({ value, className = 'h-24 w-auto' }: { value: string; className?: string }) {
  const href = fileHref(value);
  if (IMAGE.test(value)) return <img src={href} alt="" loading="lazy" className={`${className} self-start rounded border border-slate-200 bg-slate-50 object-contain`} />;
  if (VIDEO.test(value)) return <video src={href} muted preload="metadata" className={`${className} self-start rounded border border-slate-200`} />;
  return <FileText aria-hidden className="h-6 w-6 text-slate-400" />;
}

/** the pixel size of an image file, read in the browser; undefined for anything else */
async function imageSize(file: File): Promise<{ width: number; height: number } | undefined> {
  if (!file.type.startsWith('image/') || typeof createImageBitmap !== 'function') return undefined;
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close?.();
    return size;
  } catch {
    return undefined;
  }
}

/**
 * A file field: its url, or an upload through the file-storage module, with a preview. After an upload the
 * form fills the row's other fields from the answer (size, extension, MIME type, width and height when
 * the server gives them, else the image's size as the browser reads it) and a blank title from the file's name.
 */
export function FileWidget({ id, name, value, onChange, disabled, registry, rawErrors }: WidgetProps) {
  const ctx = (registry.formContext ?? {}) as Partial<FormContext>;
  const picker = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ pending?: boolean; error?: string }>({});
  const upload = async (file: File) => {
    setState({ pending: true });
    const form = new FormData();
    form.set('file', file);
    try {
      const res = await fetch('/api/file-storage/files/upload', { method: 'POST', body: form, credentials: 'include' });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(body.message ?? `The upload failed (${res.status})`);
      const answer: Record<string, unknown> = { ...body.data };
      if (answer.width === undefined || answer.height === undefined) Object.assign(answer, await imageSize(file));
      // the form sets the field and what follows from it at once; alone, the widget sets its value
      if (ctx.onUploaded) ctx.onUploaded(String(name), file, answer);
      else onChange(answer.url ?? answer.file);
      setState({});
    } catch (e) {
      setState({ error: (e as Error).message });
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex gap-2">
        <Input id={id} value={value ?? ''} placeholder="https://… or upload" disabled={disabled} aria-invalid={rawErrors?.length ? true : undefined} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} />
        <Button variant="outline" disabled={disabled || state.pending} onClick={() => picker.current?.click()}>
          <Upload className="h-4 w-4" /> {state.pending ? 'Uploading...' : 'Upload'}
        </Button>
        <input ref={picker} type="file" hidden aria-label="Upload a file" accept="image/*,video/mp4,video/webm,application/pdf" onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])} />
      </div>
      {state.error && <p role="alert" className="text-xs text-red-700">{state.error}</p>}
      {typeof value === 'string' && value && <FilePreview value={value} />}
    </div>
  );
}
