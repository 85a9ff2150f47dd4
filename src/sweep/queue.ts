// placeholder until the BullMQ producer lands
import { UsageError } from '../errors.ts';

export function runQueued(..._args: unknown[]): AsyncGenerator<never> {
  throw new UsageError('--queue is not available yet');
}
