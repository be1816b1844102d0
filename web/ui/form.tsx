import { createContext, forwardRef, useContext, useSyncExternalStore, type FormHTMLAttributes } from 'react';

/**
 * Whether a form's submit buttons may send it: false inside a `PostForm` whose page's script has not run yet. `Button`
 * (web/ui/button.tsx) reads it; outside a `PostForm` it is always true.
 */
export const SubmitReady = createContext(true);
export const useSubmitReady = () => useContext(SubmitReady);

const never = () => () => undefined;
/**
 * False in the server's render and while the browser hydrates that HTML, true once React runs the page here (and at
 * once in a page React renders itself, as the admin).
 */
export const useHydrated = () => useSyncExternalStore(never, () => true, () => false);

/**
 * A form whose values never travel in a URL (red-team item 8). The server renders forms with named inputs; one sent by
 * the browser itself (before the page's script has run: a slow phone, a quick click) would go as a GET with every
 * value — email, password — in the address, and from there into history, access logs and Referer headers. So:
 * - it is `method="post"`: even a native submission puts nothing in the URL (the server answers a POST to a page with
 *   a 303 back to it, reading nothing: runtime/web.ts);
 * - until hydrated its submit buttons are disabled (`SubmitReady`), which also blocks implicit submission (Enter in a
 *   field clicks the form's default button, and a disabled one sends nothing).
 * Every form that takes a secret or an address is one: plugins/rbac/web/ui.tsx `ActionForm` renders it.
 * @example <PostForm onSubmit={submit} noValidate aria-label="Sign in">…<Button type="submit">Login</Button></PostForm>
 */
export const PostForm = forwardRef<HTMLFormElement, Omit<FormHTMLAttributes<HTMLFormElement>, 'method'> & {
  /** said (in a <noscript>) to a browser that runs no script, whose button stays disabled */
  noScript?: string;
}>(function PostForm({ noScript, children, ...props }, ref) {
  const hydrated = useHydrated();
  return (
    <SubmitReady.Provider value={hydrated}>
      <form ref={ref} {...props} method="post" data-hydrated={hydrated || undefined}>
        {children}
        {noScript && (
          <noscript>
            <p className="text-sm text-slate-600">{noScript}</p>
          </noscript>
        )}
      </form>
    </SubmitReady.Provider>
  );
});
