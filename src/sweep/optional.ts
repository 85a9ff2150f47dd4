// The Redis queue's packages (bullmq, ioredis) are optional peer
// dependencies: a user who compiles and simulates does not install them
// (with their own msgpackr, luxon, ...). A queued sweep or a worker imports
// its modules through this, and a missing package is a UsageError saying
// what to install, not Node's ERR_MODULE_NOT_FOUND from deep inside.
import { UsageError } from '../errors.ts';

const QUEUE_PACKAGES = ['bullmq', 'ioredis'];

// (the import of a queue module, what needs it) => the module, or a UsageError naming the package to install
export async function withQueuePackages<T>(load: () => Promise<T>, what: string): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const missing = QUEUE_PACKAGES.find((p) => e instanceof Error && (e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(`'${p}'`));
    if (!missing) throw e;
    throw new UsageError(`${what} needs the package ${missing}, which is not installed`, {
      hint: `the Redis queue's packages are optional: npm install ${QUEUE_PACKAGES.join(' ')}`,
    });
  }
}
