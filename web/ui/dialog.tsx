import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { cn } from './cn.js';

/**
 * Marks a layer inside a dialog that handles Escape itself (an open calendar, a listbox, a link editor): the
 * dialog leaves that Escape to it, so one Escape closes only the innermost layer.
 */
export const ESCAPE_LAYER = 'data-escape-layer';

/**
 * A modal dialog (Radix): focus moves in and is trapped, Escape and the close button close it, and focus
 * returns to what had it when the dialog opened (the button that opened it). Focus starts on the control marked
 * `data-autofocus` when there is one, else (`focusField`) on the first enabled form field, else on the first control.
 */
export function Dialog({ open, onOpenChange, title, description, children, className, trigger, bare, role, focusField }: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  trigger?: ReactNode;
  /** the children lay out and scroll themselves (a form with a footer of its own) */
  bare?: boolean;
  role?: 'dialog' | 'alertdialog';
  /** a form dialog: focus starts on its first field (what the keyboard came to fill in), not on Close */
  focusField?: boolean;
}) {
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  // remember the element focused when the dialog opens, before Radix moves focus inside
  useLayoutEffect(() => {
    if (open && !wasOpen.current) opener.current = document.activeElement as HTMLElement | null;
    wasOpen.current = !!open;
  }, [open]);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <RadixDialog.Content
          {...(role && { role })}
          onOpenAutoFocus={(e) => {
            // a control marked data-autofocus (a picker's search) takes focus, not the first one (Close)
            const content = e.currentTarget as HTMLElement | null;
            const first =
              content?.querySelector?.<HTMLElement>('[data-autofocus]') ??
              (focusField ? content?.querySelector?.<HTMLElement>('input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)') : null);
            if (first) {
              e.preventDefault();
              first.focus();
            }
          }}
          onInteractOutside={(e) => {
            // a toast over the dialog (a failed save's Retry, the session's Save) is part of the same work: a click
            // or focus there neither closes the dialog nor asks to discard it
            if ((e.target as Element | null)?.closest?.('[data-sonner-toaster]')) e.preventDefault();
          }}
          onEscapeKeyDown={(e) => {
            const target = e.target as Element | null;
            if (target?.closest?.(`[${ESCAPE_LAYER}]`)) e.preventDefault();
          }}
          onCloseAutoFocus={(e) => {
            const el = opener.current;
            if (!trigger && el && el.isConnected && el !== document.body) {
              e.preventDefault();
              el.focus();
            }
          }}
          className={cn(
            'fixed left-1/2 top-1/2 z-50 flex max-h-[100dvh] w-[calc(100vw-1rem)] max-w-3xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl focus:outline-none sm:w-[calc(100vw-2rem)]',
            className,
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 py-3 sm:px-6 sm:py-4">
            <div className="min-w-0">
              <RadixDialog.Title className="break-words text-lg font-semibold">{title}</RadixDialog.Title>
              {description ? <RadixDialog.Description className="text-sm text-slate-600">{description}</RadixDialog.Description> : <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>}
            </div>
            <RadixDialog.Close className="rounded p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600" aria-label="Close">
              <X className="h-5 w-5" />
            </RadixDialog.Close>
          </div>
          {bare ? <div className="flex min-h-0 flex-1 flex-col">{children}</div> : <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6">{children}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
