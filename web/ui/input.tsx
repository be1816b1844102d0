import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn.js';

/** `.field` in web/styles.css, and what callers may set themselves (width, colours, text size, padding) */
const base = 'field w-full border-slate-300 px-3 text-sm focus:border-blue-600 focus:ring-blue-600/20';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  return <input ref={ref} className={cn(base, 'h-10', className)} {...props} />;
});

/** a caller's min-h-… replaces the default height (cn does not resolve conflicts: both would be in the markup) */
export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, ...props }, ref) {
  return <textarea ref={ref} className={cn(base, !/(^|\s)min-h-/.test(className ?? '') && 'min-h-24', className)} {...props} />;
});
