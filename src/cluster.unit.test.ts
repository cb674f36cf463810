// The memory settings a worker gets (src/cluster.ts): added to the primary's, never over an operator's own.
import { describe, expect, it } from 'vitest';
import { workerEnv, workerExecArgv } from './cluster.js';

describe('a worker’s node flags', () => {
  it('are the primary’s own followed by the memory settings', () => {
    expect(workerExecArgv(['--enable-source-maps'])).toEqual(['--enable-source-maps', '--max-semi-space-size=8', '--max-old-space-size=1024']);
  });

  it('keep a heap limit the operator set, in the command line or NODE_OPTIONS, in either spelling', () => {
    expect(workerExecArgv(['--max-old-space-size=4096'])).toEqual(['--max-old-space-size=4096', '--max-semi-space-size=8']);
    expect(workerExecArgv([], '--max_old_space_size=2048 --max-semi-space-size=32')).toEqual([]);
    expect(workerExecArgv([], '--inspect')).toEqual(['--max-semi-space-size=8', '--max-old-space-size=1024']);
  });
});

describe('a worker’s environment', () => {
  it('adds one malloc arena unless the environment sets the arenas itself', () => {
    expect(workerEnv({})).toEqual({ MALLOC_ARENA_MAX: '1' });
    expect(workerEnv({ MALLOC_ARENA_MAX: '4' })).toEqual({});
  });
});
