// A message above a view's content: `info` explains, `warning` says something is off.
import type { ComponentChildren } from 'preact';

export function Banner({
  tone,
  title,
  children,
}: {
  tone: 'info' | 'warning' | 'error';
  title?: string;
  children?: ComponentChildren;
}) {
  return (
    <div class={`banner banner-${tone}`} role={tone === 'info' ? undefined : 'status'}>
      {title && <p class="banner-title">{title}</p>}
      {children}
    </div>
  );
}
