export { formatPrice } from '../format/index.js';

/** A Paddle.js checkout amount (major units, a number) in minor units, without float drift. */
export function toMinor(major: number): number {
  return Math.round(major * 100);
}
