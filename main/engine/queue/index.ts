// The durable job queue's public surface.
export { JobQueue, CRASH_LOOP_LIMIT } from './job-queue.ts';
export type {
  JobContext,
  JobKindDefinition,
  JobKindHandle,
  JobQueueOptions,
  EnqueueOptions,
  EnqueueResult,
  RunningJob,
} from './job-queue.ts';
export { PermanentError, TransientError, LeaseLostError, QueueError } from './job-errors.ts';
export type { QueueErrorCode } from './job-errors.ts';
export { classifyFailure } from './classify-failure.ts';
export type { FailureClass } from './classify-failure.ts';
export { backoffDelay, defaultBackoff } from './backoff.ts';
export type { BackoffPolicy } from './backoff.ts';
export { systemClock } from './queue-clock.ts';
export type { QueueClock } from './queue-clock.ts';
export type {
  QueueEvents,
  QueueStatus,
  QueueCondition,
  QueueConditionName,
} from './queue-events.ts';
export { TypedEmitter } from './typed-emitter.ts';
