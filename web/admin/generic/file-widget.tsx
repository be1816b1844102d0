import { useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { Upload } from 'lucide-react';
import { Button } from '../../ui/button.js';
import { Input } from '../../ui/input.js';

const IMAGE = /\.(png|jpe?g|gif|webp|avif)$/i;

/** a file field: its url, or an upload through the file-storage module, with a preview for images */
export function FileWidget({ id, value, onChange, disabled }: WidgetProps) {
  const picker = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ pending?: boolean; error?: string }>({});
  const upload = async (file: File) => {
    setState({ pending: true });
    const form = new FormData();
    form.set('file', file);
    try {
      const res = await fetch('/api/file-storage/files/upload', { method: 'POST', body: form, credentials: 'include' });
      const body = await res.json();
      if (!res.ok) throw new Error(body.message ?? `${res.status} | ${res.statusText}`);
      onChange(body.data.url);
      setState({});
    } catch (e) {
      setState({ error: (e as Error).message });
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex gap-2">
        <Input id={id} value={value ?? ''} placeholder="https://… or upload" disabled={disabled} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} />
        <Button variant="outline" disabled={disabled || state.pending} onClick={() => picker.current?.click()}>
          <Upload className="h-4 w-4" /> {state.pending ? 'Uploading...' : 'Upload'}
        </Button>
        <input ref={picker} type="file" hidden aria-label="Upload a file" accept="image/*,video/mp4,video/webm,application/pdf" onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])} />
      </div>
      {state.error && <p role="alert" className="text-xs text-red-700">{state.error}</p>}
      {typeof value === 'string' && IMAGE.test(value) && <img src={value} alt="" className="h-24 w-auto self-start rounded border border-slate-200 object-contain" />}
    </div>
  );
}
