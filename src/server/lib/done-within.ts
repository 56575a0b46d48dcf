/**
 * Whether `work` answered true within `timeoutMs`: false when it answers false, fails or is late.
 * The timer is cleared as soon as either comes, so a quick answer keeps no timer alive; late work
 * goes on, unobserved.
 */
export async function doneWithin(work: Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, false);
  });
  try {
    return await Promise.race([work.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
