// While a window reads the event stream and the service cannot be reached, the app probes it
// on its own (1 s, then doubling to about 10 s), so coming back is noticed within seconds even
// when no job waits (the queue itself probes only by running a due job). Real HTTP, the
// simulator's faults for "the service went away".
import { describe, expect, test } from 'vitest';
import { startBridge } from './harness.ts';

const CREDITS = 'GET /v1/credits';

describe('the connection probe', () => {
  test('a window open: the service is asked again within seconds, and its return is an event', async () => {
    const bridge = await startBridge();
    try {
      const engine = bridge.app.requireEngine();
      await engine.queue.whenIdle();
      const control = bridge.sim.control;
      control.setFaults('/v1/*:reset-before=1');
      // The queue learned it is offline (as a failed job tells it); nothing else waits.
      engine.queue.setCondition('offline', {
        code: 'NETWORK_ERROR',
        message: 'connection reset',
      });
      const offline = await bridge.events({
        lastEventId: 0,
        until: (seen) => seen.some((e) => e.type === 'connection' && !e.online),
      });
      const last = offline.at(-1)?.seq ?? 0;
      expect(offline.some((e) => e.type === 'connection' && !e.online)).toBe(true);
      control.clearFaults();
      // A window reads the stream: the probe brings the service back without any job.
      const back = await bridge.events({
        lastEventId: last,
        until: (seen) => seen.some((e) => e.type === 'connection' && e.online),
        ms: 15_000,
      });
      expect(back.some((e) => e.type === 'connection' && e.online)).toBe(true);
      expect(control.log({ route: CREDITS }).length).toBeGreaterThan(0);
    } finally {
      await bridge.close();
    }
  });
});
