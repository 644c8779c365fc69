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
export { watchQueueHalt } from './queue-halt.ts';
export type { QueueHalt, QueueHaltOptions } from './queue-halt.ts';
export { isCommandJob, runJobNow } from './run-job-now.ts';
export type { JobRunOutcome, RunJobNowOptions } from './run-job-now.ts';
