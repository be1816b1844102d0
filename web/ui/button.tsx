import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cn } from './cn.js';
import { useSubmitReady } from './form.js';

export const BUTTON_VARIANTS = {
  default: 'bg-slate-900 text-white hover:bg-slate-700',
  primary: 'bg-blue-600 text-white hover:bg-blue-500',
  secondary: 'bg-slate-100 text-slate-900 hover:bg-slate-200',
  destructive: 'bg-red-600 text-white hover:bg-red-500',
  outline: 'border border-slate-300 bg-white hover:bg-slate-50',
  ghost: 'hover:bg-slate-100',
  link: 'text-blue-700 underline-offset-4 hover:underline',
  success: 'bg-green-600 text-white hover:bg-green-500',
} as const;

export type ButtonVariant = keyof typeof BUTTON_VARIANTS;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md' | 'icon';
}

/**
 * the one button: variants default, primary, secondary, destructive, outline, ghost, link. A submit button inside a
 * `PostForm` (web/ui/form.tsx) is disabled until the page is hydrated, so that the browser never sends that form itself.
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button({ variant = 'default', size = 'md', className, type = 'button', disabled, ...props }, ref) {
  const ready = useSubmitReady();
  return (
    <button
      ref={ref}
      type={type}
      disabled={disabled || (type === 'submit' && !ready)}
      className={cn(
        // `.button` in web/styles.css: display, alignment, radius, weight, focus ring, disabled look
        'button',
        size === 'sm' ? 'h-8 px-3 text-sm' : size === 'icon' ? 'h-9 w-9' : 'h-10 px-4 text-sm',
        BUTTON_VARIANTS[variant],
        className,
      )}
      {...props}
    />
  );
});
