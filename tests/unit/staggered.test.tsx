import { act, cleanup, render, screen } from '@testing-library/react';
import { lazy, Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Staggered } from '../../src/components/Staggered.js';

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
});
