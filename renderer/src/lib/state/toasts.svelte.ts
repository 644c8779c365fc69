// Notifications inside the window: the engine's `notify` events (a Brand Skill updated, a brand
// ready or failed, an upload failed, signed out) and the outcome of what the user just did.
// The same events feed OS notifications in the desktop app.
import type { EventHub } from './event-hub.svelte.ts';

export type ToastTone = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  message: string;
  brandId: string | null;
}

const toneOf: Record<string, ToastTone> = {
  'skill-updated': 'success',
  'brand-ready': 'success',
  'brand-failed': 'error',
  'upload-failed': 'error',
  'signed-out': 'warning',
  'image-edited': 'success',
  'image-edit-failed': 'warning',
};

export class Toasts {
  list = $state<Toast[]>([]);
  #next = 1;

  constructor(hub: EventHub) {
    hub.on(['notify'], (event) => {
      if (event.type !== 'notify') return;
      this.show(toneOf[event.kind] ?? 'info', event.title, event.message, event.brandId);
    });
  }

  show(tone: ToastTone, title: string, message = '', brandId: string | null = null): number {
    const id = this.#next++;
    // Five at most: the oldest go first; errors stay until dismissed, the rest fade.
    this.list = [...this.list.slice(-4), { id, tone, title, message, brandId }];
    if (tone !== 'error') setTimeout(() => this.dismiss(id), 8000);
    return id;
  }

  dismiss(id: number): void {
    this.list = this.list.filter((t) => t.id !== id);
  }
}
