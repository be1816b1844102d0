import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '../ui/cn.js';

/**
 * Controls that would float over the page (the cart button) are drawn in the page's header bar when it has a slot for
 * them (`FloatingSlot`, drawn by the navbar): there they cover nothing of the page, at any scroll, on a phone as on a
 * desktop (floating over the bottom right corner, the cart button covered whatever control was under it, the account
 * settings' Delete on a phone's first screen). A page without one draws them floating over the bottom right corner
 * of the viewport (56 px, its badge 4 px above), docked at the end of the page's main content (`FloatingDock`, drawn
 * by PageView) with the room they take there, 20 px around them included: the dock is sticky to the viewport's
 * bottom, so they stop above the footer when the page ends. While one floats, scrolling to an element (keyboard
 * focus, an anchor, scrollIntoView) stops with the element above it (scroll-padding), and toasts on a phone rise above
 * it (shell.tsx, useFloatingShown).
 */
export const FLOATING_SPACE_PX = 96;

type Place = HTMLElement | null;
const DockContext = createContext<{ dock: Place; setDock: (element: Place) => void; slot: Place; setSlot: (element: Place) => void } | null>(null);
/** whether the controls are drawn in the header's slot (they then take the bar's look, not a floating one) */
const InSlot = createContext(false);
export const useInHeaderSlot = () => useContext(InSlot);

/** holds the dock and the header slot of the floating controls drawn inside it (PageView wraps the page in it) */
export function FloatingArea({ children }: { children: ReactNode }) {
  const [dock, setDock] = useState<Place>(null);
  const [slot, setSlot] = useState<Place>(null);
  const value = useMemo(() => ({ dock, setDock, slot, setSlot }), [dock, slot]);
  return <DockContext.Provider value={value}>{children}</DockContext.Provider>;
}

/** where a header bar draws the page's floating controls (see above); empty, it takes no room */
export function FloatingSlot({ className }: { className?: string }) {
  const area = useContext(DockContext);
  return <div ref={area?.setSlot} data-floating-slot className={cn('flex items-center gap-2 empty:hidden', className)} />;
}

/** where floating controls dock: the end of the page's main content, sticky to the viewport's bottom; empty, it takes no room */
export function FloatingDock() {
  const area = useContext(DockContext);
  return <div ref={area?.setDock} data-floating-dock className="pointer-events-none sticky bottom-0 z-30 flex flex-col items-end" />;
}

let shown = 0;
const watchers = new Set<() => void>();

/** keeps scrolling from stopping an element under the floating controls while one is shown; returns the release */
function reserveScrollRoom(): () => void {
  const root = document.documentElement;
  if (shown++ === 0) {
    root.style.scrollPaddingBottom = `${FLOATING_SPACE_PX}px`;
    for (const w of watchers) w();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--shown === 0) {
      root.style.scrollPaddingBottom = '';
      for (const w of watchers) w();
    }
  };
}

const watch = (changed: () => void) => (watchers.add(changed), () => void watchers.delete(changed));
/** whether a control floats over the page's bottom right corner now (none does when the header has a slot for it) */
export const useFloatingShown = () => useSyncExternalStore(watch, () => shown > 0, () => false);

/**
 * Draws `children` (one control) in the header's slot when the page has one (`useInHeaderSlot` is then true); else
 * floating: in the page's dock, at its right with 20 px around it (a round control, 56 px), or outside a page with a
 * dock fixed to the viewport's bottom right corner.
 * @example <Floating><CartButton /></Floating>
 */
export function Floating({ children }: { children: ReactNode }) {
  const area = useContext(DockContext);
  const slot = area?.slot;
  useEffect(() => (slot ? undefined : reserveScrollRoom()), [slot]);
  if (slot) return createPortal(<InSlot.Provider value>{children}</InSlot.Provider>, slot);
  if (!area?.dock) return <div className="fixed bottom-5 right-5 z-30">{children}</div>;
  return createPortal(<div className="p-5 [&>*]:pointer-events-auto">{children}</div>, area.dock);
}
