// Stops the run's daemon (global-setup.js) and removes its folder, whether the tests passed or not.
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const pid = Number(process.env.BRIDGED_JEST_DAEMON_PID);
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {}
    for (let i = 0; i < 1000; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  if (process.env.BRIDGED_JEST_DIR) rmSync(process.env.BRIDGED_JEST_DIR, { recursive: true, force: true });
  delete process.env.BRIDGED_JEST_SOCKET;
  delete process.env.BRIDGED_JEST_DAEMON_PID;
  delete process.env.BRIDGED_JEST_DIR;
}
