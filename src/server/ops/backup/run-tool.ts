import { spawn, type StdioOptions } from 'node:child_process';
import { BackupError } from './manifest';

export interface ToolRun {
  env?: NodeJS.ProcessEnv;
  /** Where the tool's standard input comes from and its output goes (default: none, captured). */
  stdio?: StdioOptions;
}

/**
 * Runs a system tool (tar, pg_dump, pg_restore, psql) without a shell and answers its standard
 * output; a non-zero exit throws with the tool's own last words, which name the real problem.
 */
export function runTool(command: string, args: string[], options: ToolRun = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new BackupError(error.code === 'ENOENT' ? `${command} was not found: it is needed for this step` : error.message)),
    );
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new BackupError(`${command} failed (${signal ?? `exit ${code}`}): ${err.trim() || 'no message'}`));
    });
  });
}

/**
 * Runs `producer | consumer` (pg_restore's SQL into psql) and waits for both; the first failure
 * wins, so a damaged dump reports pg_restore's error rather than psql's "unexpected end".
 */
export function runPipe(producer: [string, string[]], consumer: [string, string[]], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const left = spawn(producer[0], producer[1], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const right = spawn(consumer[0], consumer[1], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    left.stdout.pipe(right.stdin);
    // psql may stop reading (an error with ON_ERROR_STOP): the pipe's EPIPE is not the story.
    right.stdin.on('error', () => undefined);
    const errors = { left: '', right: '' };
    left.stderr.on('data', (d: Buffer) => (errors.left = (errors.left + d.toString()).slice(-4000)));
    right.stderr.on('data', (d: Buffer) => (errors.right = (errors.right + d.toString()).slice(-4000)));
    const exit = (child: typeof left | typeof right) =>
      new Promise<number | null>((done) => {
        child.on('error', (error: NodeJS.ErrnoException) => {
          errors[child === left ? 'left' : 'right'] += error.code === 'ENOENT' ? 'not found' : error.message;
          done(-1);
        });
        child.on('close', (code) => done(code));
      });
    Promise.all([exit(left), exit(right)]).then(([a, b]) => {
      if (a !== 0) reject(new BackupError(`${producer[0]} failed: ${errors.left.trim() || `exit ${a}`}`));
      else if (b !== 0) reject(new BackupError(`${consumer[0]} failed: ${errors.right.trim() || `exit ${b}`}`));
      else resolve();
    }, reject);
  });
}
