// A box that scrolls is reachable from the keyboard whatever it holds: focusable itself, so
// arrow keys scroll it even when it has no link or button of its own (WCAG 2.1.1; axe's
// scrollable-region-focusable). Whether it overflows depends on the data and the window's
// size, so it is focusable always, not only when it happens to scroll. An attachment rather
// than a wrapper component, so the element keeps its own scoped styles.
import type { Attachment } from 'svelte/attachments';

/** Focusable, and a named region when `label` is given (an element with a role keeps it). */
export function scrollRegion(label?: string): Attachment<HTMLElement> {
  return (node) => {
    node.tabIndex = 0;
    if (label !== undefined) {
      if (!node.hasAttribute('role')) node.setAttribute('role', 'region');
      node.setAttribute('aria-label', label);
    }
  };
}
