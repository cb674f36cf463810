// The frame of the database tools (backup, restore): arguments parsed strictly, a failure printed as a message
// (with the usage when the arguments were wrong) and a non-zero exit code, as db:migrate and db:seed do.
import { parseArgs } from 'node:util';

export interface CliArgs {
  file: string | undefined;
  force: boolean;
}

export function runCli(usage: string, main: (args: CliArgs) => Promise<void>): void {
  let args: CliArgs;
  try {
    const { positionals, values } = parseArgs({
      allowPositionals: true,
      options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
    if (values.help) return console.log(usage);
    if (positionals.length > 1) throw new Error(`one file only, got ${positionals.length}`);
    args = { file: positionals[0], force: values.force };
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exitCode = 2;
    return;
  }
  let settled = false;
  // Work that waits on something that will never happen lets Node exit with 0 on an empty event loop: a backup
  // that was not written must never look like one that was.
  process.once('beforeExit', () => {
    if (settled) return;
    console.error('Stopped before finishing.');
    process.exitCode = 1;
  });
  main(args)
    .catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    })
    .finally(() => (settled = true));
}
