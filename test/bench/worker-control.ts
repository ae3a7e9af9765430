/** Stops the service workers of a page through CDP and sees them stopped (the cold-start measurements). */
import type { CDPSession, Page } from 'playwright-core';

/** Tracks the running status of every service worker version the CDP session reports. */
export class WorkerControl {
  private status = new Map<string, string>();
  private constructor(private cdp: CDPSession) {
    cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
      for (const v of event.versions) this.status.set(v.versionId, v.runningStatus);
    });
  }

  static async attach(page: Page): Promise<WorkerControl> {
    const cdp = await page.context().newCDPSession(page);
    const control = new WorkerControl(cdp);
    await cdp.send('ServiceWorker.enable');
    return control;
  }

  /** Stops every worker and waits until CDP reports them all stopped; false if that was not seen in 5 s. */
  async stop(): Promise<boolean> {
    await this.cdp.send('ServiceWorker.stopAllWorkers');
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      if (this.status.size > 0 && [...this.status.values()].every((s) => s === 'stopped')) return true;
      await sleep(10);
    }
    return false;
  }
}

export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** A `stopWorkers(page)` for the sections: one WorkerControl a page, attached on first use. */
export function stopWorkersOf(): (page: Page) => Promise<boolean> {
  const controls = new WeakMap<Page, WorkerControl>();
  return async (page) => {
    if (!controls.has(page)) controls.set(page, await WorkerControl.attach(page));
    return controls.get(page)!.stop();
  };
}
