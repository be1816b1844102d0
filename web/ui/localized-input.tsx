import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn.js';
import { Input, Textarea } from './input.js';

/** a localized text: one entry per language code; a language without text has no key */
export type LocalizedValue = Partial<Record<string, string>>;

export interface LocalizedInputProps {
  /** id of the text field (so a <label htmlFor> points at it); tabs and panel derive their ids from it */
  id: string;
  value: LocalizedValue | null | undefined;
  /** receives the whole new map; a language whose text becomes empty is removed */
  onChange: (value: Record<string, string>) => void;
  /** language codes, the first one is the default (initially selected) */
  languages: string[];
  multiline?: boolean;
  disabled?: boolean;
  /** draws the selected language's editor instead of a text field (e.g. a rich-text editor) */
  renderEditor?: (props: { id: string; lang: string; value: string; disabled?: boolean; onChange: (text: string) => void }) => ReactNode;
}

/** keeps only string entries, so that a malformed stored value cannot leak into onChange */
function toMap(value: LocalizedValue | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * A text field with one tab per language (WAI-ARIA tabs pattern, automatic activation):
 * Left/Right arrows (wrapping), Home and End move between the tabs; a tab whose language already
 * has text shows a dot (and says so to screen readers).
 */
export function LocalizedInput({ id, value, onChange, languages, multiline, disabled, renderEditor }: LocalizedInputProps) {
  const [chosen, setChosen] = useState<string | undefined>(languages[0]);
  const tabRefs = useRef<Map<string, HTMLButtonElement>>(new Map());
  const map = toMap(value);
  const selected = chosen !== undefined && languages.includes(chosen) ? chosen : languages[0];
  if (selected === undefined) return null;

  const tabId = (lang: string) => `${id}-tab-${lang}`;
  const panelId = `${id}-panel`;

  const select = (lang: string) => {
    setChosen(lang);
    tabRefs.current.get(lang)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = languages.indexOf(selected);
    const n = languages.length;
    let next: number | undefined;
    if (e.key === 'ArrowRight') next = (i + 1) % n;
    else if (e.key === 'ArrowLeft') next = (i - 1 + n) % n;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n - 1;
    if (next === undefined) return;
    e.preventDefault();
    select(languages[next]!);
  };

  const update = (text: string) => {
    const next = { ...map };
    if (text === '') delete next[selected];
    else next[selected] = text;
    onChange(next);
  };

  const text = map[selected] ?? '';
  const fieldProps = {
    id,
    value: text,
    disabled,
    lang: selected,
    'aria-describedby': tabId(selected),
  };

  return (
    <div className="flex flex-col gap-1">
      <div role="tablist" aria-label="Language" className="flex gap-1">
        {languages.map((lang) => {
          const isSelected = lang === selected;
          const filled = !!map[lang];
          return (
            <button
              key={lang}
              ref={(el) => {
                if (el) tabRefs.current.set(lang, el);
                else tabRefs.current.delete(lang);
              }}
              type="button"
              role="tab"
              id={tabId(lang)}
              aria-selected={isSelected}
              aria-controls={panelId}
              tabIndex={isSelected ? 0 : -1}
              data-filled={filled || undefined}
              onClick={() => select(lang)}
              onKeyDown={onKeyDown}
              className={cn(
                'relative inline-flex h-7 items-center gap-1 rounded-md px-2 font-mono text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
                isSelected ? 'bg-slate-900 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200',
              )}
            >
              {lang.toUpperCase()}
              {filled && (
                <>
                  <span aria-hidden className={cn('h-1.5 w-1.5 rounded-full', isSelected ? 'bg-white' : 'bg-blue-600')} />
                  <span className="sr-only"> (has text)</span>
                </>
              )}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(selected)}>
        {renderEditor ? (
          renderEditor({ id, lang: selected, value: text, disabled, onChange: update })
        ) : multiline ? (
          <Textarea {...fieldProps} onChange={(e) => update(e.target.value)} />
        ) : (
          <Input {...fieldProps} onChange={(e) => update(e.target.value)} />
        )}
      </div>
    </div>
  );
}
