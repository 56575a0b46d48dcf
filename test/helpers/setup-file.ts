import { afterEach, expect } from 'vitest';
import { liveApps } from './test-app';

// A test fails when the app logged an error it did not take with `takeErrors()` (house style).
afterEach(() => {
  const unexpected = [...liveApps()].flatMap((t) => t.takeErrors());
  expect(unexpected, `the app logged unexpected errors: ${JSON.stringify(unexpected)}`).toEqual([]);
});
