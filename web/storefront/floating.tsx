import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * Controls that float over the bottom right corner of the viewport (the cart button: 56 px, its badge 4 px above)
 * dock at the end of the page's main content (`FloatingDock`, drawn by PageView) and the room they take there,
 * 20 px around them included. The dock is sticky to the viewport's bottom: while the content goes on below, they
 * float over it; when the page ends they stop above the footer, so they never rest on its links, and the dock's own
 * height is room at the content's end where they cover nothing. While one is shown, scrolling to an element
 * (keyboard focus, an anchor, scrollIntoView) stops with the element above them (scroll-padding). Toasts on a phone
 * rise above them too (shell.tsx).
 */
export const FLOATING_SPACE_PX = 96;

const DockContext = createContext<{ dock: HTMLElement | null; setDock: (element: HTMLElement | null) => void } | null>(null);

/** holds the dock of the floating controls drawn inside it (PageView wraps the page in it) */
export function FloatingArea({ children }: { children: ReactNode }) {
  const [dock, setDock] = useState<HTMLElement | null>(null);
  const value = useMemo(() => ({ dock, setDock }), [dock]);
  return <DockContext.Provider value={value}>{children}</DockContext.Provider>;
}

/** where floating controls dock: the end of the page's main content, sticky to the viewport's bottom; empty, it takes no room */
export function FloatingDock() {
  const area = useContext(DockContext);
  return <div ref={area?.setDock} data-floating-dock className="pointer-events-none sticky bottom-0 z-30 flex flex-col items-end" />;
}

let shown = 0;

/** keeps scrolling from stopping an element under the floating controls while one is shown; returns the release */
function reserveScrollRoom(): () => void {
  const root = document.documentElement;
  if (shown++ === 0) root.style.scrollPaddingBottom = `${FLOATING_SPACE_PX}px`;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--shown === 0) root.style.scrollPaddingBottom = '';
  };
}

/**
 * Draws `children` (one round control, 56 px) in the page's floating dock, at its right with 20 px around it;
 * outside a page with a dock, fixed to the viewport's bottom right corner.
 * @example <Floating><CartButton /></Floating>
 */
export function Floating({ children }: { children: ReactNode }) {
  const dock = useContext(DockContext)?.dock;
  useEffect(() => reserveScrollRoom(), []);
  if (!dock) return <div className="fixed bottom-5 right-5 z-30">{children}</div>;
  return createPortal(<div className="p-5 [&>*]:pointer-events-auto">{children}</div>, dock);
}
