import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The deployment files cannot be run here (no Docker engine, no cluster); the static checker
// validates them against the real configuration schema instead.
describe('deployment manifests', () => {
  it('pass the static checks (compose env, k8s probes, secrets, config names)', () => {
    const result = spawnSync(process.execPath, ['deploy/check-manifests.mjs'], { encoding: 'utf8' });
    expect(result.stderr + result.stdout).not.toMatch(/FAIL/);
    expect(result.status).toBe(0);
  });
});
