import { act, cleanup, render, screen } from '@testing-library/react';
import { lazy, Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Staggered, WAITING_PARTS } from '../../src/components/Staggered.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Runs the timer that reveals the next part, and the transition it starts. */
const nextTask = () => act(() => vi.advanceTimersByTimeAsync(0));

describe('Staggered (a screen of many parts commits one part at a time)', () => {
  it('shows nothing at first, then one more part after each commit, in order, each in a commit of its own', async () => {
    const commits: number[] = [];
    render(
      <Profiler id="parts" onRender={() => commits.push(document.querySelectorAll('p').length)}>
        <Staggered>
          <p key="a">first</p>
          {false}
          <p key="b">second</p>
          <p key="c">third</p>
        </Staggered>
      </Profiler>,
    );
    expect(screen.queryAllByRole('paragraph')).toHaveLength(0);
    await nextTask();
    expect(screen.getAllByRole('paragraph').map((p) => p.textContent)).toEqual(['first']);
    await nextTask();
    expect(screen.getAllByRole('paragraph').map((p) => p.textContent)).toEqual(['first', 'second']);
    await nextTask();
    expect(screen.getAllByRole('paragraph').map((p) => p.textContent)).toEqual(['first', 'second', 'third']);
    await nextTask();
    // One commit with nothing, then one per part: never two parts in one commit.
    expect(commits).toEqual([0, 1, 2, 3]);
  });

  it('a part whose code is still on its way holds up neither the parts after it nor the page', async () => {
    let arrive: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const Late = lazy(() => arrived.then(() => ({ default: () => <p>late</p> })));
    render(
      <Staggered>
        <Late key="late" />
        <p key="after">after</p>
      </Staggered>,
    );
    await nextTask();
    await nextTask();
    expect(screen.getAllByRole('paragraph').map((p) => p.textContent)).toEqual(['after']);
    await act(async () => arrive());
    expect(screen.getAllByRole('paragraph').map((p) => p.textContent)).toEqual(['late', 'after']);
  });

  it('says once that every part has committed, and not before: what follows the parts comes after them, not in between', async () => {
    const onShown = vi.fn(() => expect(screen.getAllByRole('paragraph')).toHaveLength(2));
    const { rerender } = render(
      <Staggered onShown={onShown}>
        <p key="a">first</p>
        <p key="b">second</p>
      </Staggered>,
    );
    await nextTask();
    expect(onShown).not.toHaveBeenCalled();
    await nextTask();
    await nextTask();
    expect(onShown).toHaveBeenCalledTimes(1);
    rerender(
      <Staggered onShown={onShown}>
        <p key="a">first, again</p>
        <p key="b">second</p>
      </Staggered>,
    );
    await nextTask();
    expect(onShown).toHaveBeenCalledTimes(1);
  });

  describe('asNeeded (the profile sections on the home: drawn as they come on screen)', () => {
    /** A stand-in for the browser's IntersectionObserver (jsdom has none): the test says what is on screen. */
    const observers = new Set<{ callback: IntersectionObserverCallback; targets: Element[] }>();
    const onScreen = (visible: boolean) =>
      act(() => {
        for (const observer of [...observers]) {
          const entries = observer.targets.map((target) => ({ target, isIntersecting: visible }) as IntersectionObserverEntry);
          observer.callback(entries, {} as IntersectionObserver);
        }
      });
    beforeEach(() => {
      observers.clear();
      vi.stubGlobal(
        'IntersectionObserver',
        class {
          private readonly entry: { callback: IntersectionObserverCallback; targets: Element[] };
          constructor(callback: IntersectionObserverCallback) {
            this.entry = { callback, targets: [] };
            observers.add(this.entry);
          }
          observe(target: Element) {
            this.entry.targets.push(target);
          }
          disconnect() {
            observers.delete(this.entry);
          }
        },
      );
    });
    afterEach(() => vi.unstubAllGlobals());

    const parts = () => screen.queryAllByRole('paragraph').map((p) => p.textContent);

    it('draws nothing while the end of what is shown is below the screen, one more part each time it comes on screen, and all once the user presses a key', async () => {
      render(
        <Staggered asNeeded>
          <p key="a">first</p>
          <p key="b">second</p>
          <p key="c">third</p>
        </Staggered>,
      );
      await onScreen(false);
      await nextTask();
      await nextTask();
      expect(parts()).toEqual([]);
      // The mark the browser tests scroll to, while parts wait.
      expect(document.querySelector(`[${WAITING_PARTS}]`)).not.toBeNull();
      await onScreen(true);
      await nextTask();
      expect(parts()).toEqual(['first']);
      // The end moved down with the part: off the screen now.
      await onScreen(false);
      await nextTask();
      expect(parts()).toEqual(['first']);
      await act(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' })));
      await nextTask();
      await nextTask();
      expect(parts()).toEqual(['first', 'second', 'third']);
      expect(document.querySelector(`[${WAITING_PARTS}]`)).toBeNull();
    });
  });
});
