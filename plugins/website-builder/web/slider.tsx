import { useRef, useState, type KeyboardEvent, type TouchEvent } from 'react';
import * as chevronLeft from 'lucide-react/icons/chevron-left';
import * as chevronRight from 'lucide-react/icons/chevron-right';
import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { lucideIcon } from '../../../web/ui/icon.js';
import { str, useWords } from './shared.js';

/** the index `step` slides away from `index`, wrapping around both ways */
export const wrapIndex = (index: number, step: number, count: number) => (count ? (((index + step) % count) + count) % count : 0);

const ChevronLeft = lucideIcon(chevronLeft);
const ChevronRight = lucideIcon(chevronRight);

/** pixels a touch must travel to count as a swipe */
const SWIPE = 40;
/** the edge zones and their round icons, the dots: `.slider-edge`, `.slider-dot`… in web/styles.css */
const EDGE = 'group slider-edge';
const EDGE_ICON = 'slider-edge-icon';

/**
 * website-builder/slider 'default': a looping carousel. Edge zones (2/12 of the width each) go to
 * the previous and next slide, dots pick one, arrow keys and swipes move; inactive slides are inert.
 */
export function Slider({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const slides = targets(row, 'slidersToSlides', 'slide');
  const [selected, setSelected] = useState(0);
  const touchX = useRef<number | null>(null);
  if (!slides.length) return null;
  const count = slides.length;
  const current = Math.min(selected, count - 1);
  const go = (step: number) => setSelected((i) => wrapIndex(Math.min(i, count - 1), step, count));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      go(e.key === 'ArrowLeft' ? -1 : 1);
    }
  };
  const onTouchStart = (e: TouchEvent) => {
    touchX.current = e.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touchX.current;
    touchX.current = null;
    const dx = start === null ? 0 : (e.changedTouches[0]?.clientX ?? start) - start;
    if (Math.abs(dx) > SWIPE) go(dx < 0 ? 1 : -1);
  };
  return (
    <div
      role="region"
      aria-roledescription={w('carouselRole')}
      aria-label={t(row.title) || w('carousel')}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onTouchStart={onTouchStart}
      onTouchEnd={onTouchEnd}
      data-selected={current}
      className={cn('relative h-[340px] w-full overflow-hidden rounded-2xl bg-slate-900 shadow-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-blue-600 lg:h-[530px]', str(row.className))}
    >
      {slides.map((slide, i) => (
        <div
          key={slide.id}
          role="group"
          aria-roledescription={w('slideRole')}
          aria-label={w('slideOf', { n: i + 1, count })}
          aria-hidden={i !== current}
          inert={i !== current}
          className={cn('slide', i === current ? 'visible scale-100 opacity-100' : 'invisible scale-[1.02] opacity-0')}
        >
          <Variant module="website-builder" entity="slide" row={slide} />
        </div>
      ))}
      {count > 1 && (
        <>
          <button type="button" aria-label={w('previousSlide')} onClick={() => go(-1)} className={cn(EDGE, 'left-0 justify-start pl-3 lg:pl-6')}>
            <span className={EDGE_ICON}><ChevronLeft className="h-6 w-6" /></span>
          </button>
          <button type="button" aria-label={w('nextSlide')} onClick={() => go(1)} className={cn(EDGE, 'right-0 justify-end pr-3 lg:pr-6')}>
            <span className={EDGE_ICON}><ChevronRight className="h-6 w-6" /></span>
          </button>
          <div className="absolute inset-x-0 bottom-2 z-30 flex justify-center gap-1">
            {slides.map((slide, i) => (
              // the dot is small; the button around it is a 24 px tap target at least
              <button
                key={slide.id}
                type="button"
                aria-label={w('goToSlide', { n: i + 1 })}
                aria-current={i === current ? 'true' : undefined}
                onClick={() => setSelected(i)}
                className="group/dot slider-dot"
              >
                <span aria-hidden className={cn('slider-dot-mark', i === current ? 'w-8 bg-white shadow-sm' : 'w-2.5 bg-white/60 group-hover/dot:bg-white/90')} />
              </button>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
