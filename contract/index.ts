// The typed bridge contract: shared by the engine side, the preload and the renderer.
// It imports only zod (lint keeps it so).
export * from './channels.ts';
export * from './events.ts';
export * from './result.ts';
export * from './shapes.ts';
export * from './channel-names.ts';
