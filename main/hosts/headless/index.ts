// The headless host's surface: started by `brand-sync serve` and `demo`, loaded only by them.
export { startHeadlessHost, type HeadlessHost, type HeadlessHostOptions } from './server.ts';
export { rendererDir } from './renderer-dir.ts';
export { openWithDesktop } from './open-url.ts';
