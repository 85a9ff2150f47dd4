// Output files that survive a crash, a Ctrl-C or a full disk: written to a
// temporary file beside the target and renamed over it when complete (as the
// compile cache writes its entries). A rename within a folder is atomic: a
// reader, or the user after a crash, finds the previous file or the new one,
// never a part of it. A write that fails (a full disk, a quota, no
// permission) is an OutputError naming the file, the temporary file is
// removed and the previous file stays. A target that exists and is not a
// regular file (/dev/stdout, a FIFO, /dev/full) is written in place: there
// is nothing to rename over it.
import { closeSync, fsyncSync, mkdirSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OutputError } from '../errors.ts';

/** temporary files not yet renamed or removed: removed when the process exits (process.exit in a user's module, a signal handler) */
const pending = new Set<OutputFile>();
let exitHook = false;

export class OutputFile {
  /** bytes written so far */
  bytes = 0;
  private fd: number | undefined;

  private constructor(
    /** the file as the user named it */
    readonly path: string,
    /** where the bytes go until commit(): a temporary file beside the target, or the target itself when it is not a regular file */
    readonly temporary: string | undefined,
    private readonly target: string,
    /** a file was there before, and stays until commit() */
    readonly existed: boolean,
  ) {
    this.fd = writing(path, existed, () => openSync(temporary ?? target, 'w'));
  }

  // (path) => an open output; nothing is changed at `path` until commit()
  static create(path: string): OutputFile {
    writing(path, false, () => mkdirSync(dirname(path), { recursive: true }));
    const found = statOf(path);
    if (found && !found.isFile()) return new OutputFile(path, undefined, path, false);
    // a symbolic link to a file stays a link: the file it points at is replaced
    const target = found ? realpathSync(path) : path;
    const file = new OutputFile(path, join(dirname(target), `.${basename(target)}.${process.pid}.tmp`), target, found !== undefined);
    pending.add(file);
    if (!exitHook) ((exitHook = true), process.on('exit', discardPending));
    return file;
  }

  write(text: string): void {
    const fd = this.open();
    const length = Buffer.byteLength(text);
    writing(this.path, this.existed, () => {
      // a regular file takes the whole text; a pipe or a device may take a part of it
      const n = writeSync(fd, text);
      if (n === length) return;
      const bytes = Buffer.from(text);
      for (let at = n; at < length;) at += writeSync(fd, bytes, at);
    });
    this.bytes += length;
  }

  /** the file complete: flushed to the disk and renamed over the target */
  commit(): void {
    const fd = this.open();
    try {
      writing(this.path, this.existed, () => {
        if (this.temporary) fsyncSync(fd); // the data on the disk before the name points at it
        closeSync(fd);
        this.fd = undefined;
        if (this.temporary) renameSync(this.temporary, this.target);
      });
    } catch (e) {
      this.discard();
      throw e;
    }
    pending.delete(this);
  }

  /** gives up: the temporary file is removed, the target stays as it was; true if there was something to remove */
  discard(): boolean {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        /* closing is all that is left to do with it */
      }
      this.fd = undefined;
    }
    pending.delete(this);
    if (!this.temporary) return false;
    try {
      unlinkSync(this.temporary);
      return true;
    } catch {
      return false; // already gone (renamed, or removed by another hand)
    }
  }

  private open(): number {
    if (this.fd === undefined) throw new Error(`${this.path} was already closed`);
    return this.fd;
  }
}

// (path, text or its pieces) => the whole file written and renamed into place, or an OutputError and the previous file kept
export function writeOutput(path: string, text: string | Iterable<string>): void {
  const file = OutputFile.create(path);
  try {
    for (const piece of typeof text === 'string' ? [text] : text) file.write(piece);
  } catch (e) {
    file.discard();
    throw e;
  }
  file.commit();
}

/** removes every temporary file still open; returns their targets (a signal handler says which outputs were left as they were) */
export function discardPending(): string[] {
  return [...pending].filter((f) => f.discard()).map((f) => f.path);
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** what each errno means for a file being written, and what to do */
const REASONS: Record<string, [string, string]> = {
  ENOSPC: ['the disk is full', 'free space on that disk, or write to another one'],
  EDQUOT: ['the disk quota is exceeded', 'free space within the quota, or write to another disk'],
  EFBIG: [
    "the file is larger than allowed (a file size limit: ulimit -f, or the file system's largest file)",
    'sample less often (--interval) or raise the limit',
  ],
  EIO: ['the device reported an input/output error', 'check the disk (dmesg) or write to another one'],
  EROFS: ['the file system is read-only', 'write to a folder on a writable disk'],
  EACCES: ['permission denied', 'write to a folder you may write to'],
  EPERM: ['the operation is not permitted', 'write to a folder you may write to'],
  EISDIR: ['it is a folder', 'give the name of a file'],
  ENOTDIR: ['a part of its path is a file, not a folder', 'check the path'],
  ENOENT: ['its folder does not exist and could not be made', 'check the path'],
  ENAMETOOLONG: ['its name is too long', 'give a shorter path'],
};

// (file, whether a previous file stays on failure, an fs call) => its value; a failure with an errno is an OutputError naming the file
export function writing<T>(path: string, existed: boolean, f: () => T): T {
  try {
    return f();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string') throw e;
    const [reason, fix] = REASONS[code] ?? [(e as Error).message, 'check the path and the disk'];
    const kept = existed ? `; the previous ${path} was left as it was` : '';
    throw new OutputError(`cannot write ${path}: ${reason} (${code})`, { hint: `${fix}${kept}` });
  }
}
