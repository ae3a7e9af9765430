/** A promise that settles after `ms` milliseconds (waits and timeouts of the client and the app). */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
