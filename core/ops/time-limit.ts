// What `work` gives, or what `expired()` gives (or throws) if `work` has not settled within `ms`. The timer is
// cleared either way, so a finished race keeps no process alive.
export function withinTime<T, U>(work: Promise<T>, ms: number, expired: () => U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<U>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(expired());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
