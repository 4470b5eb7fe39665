/** Search hits marked in log messages and metadata on /logs and /photologs. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hitRanges } from '../src/features/common/Highlight.tsx';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import PhotoLogsPage from '../src/features/photologs/PhotoLogsPage.tsx';
import { apiLog, LEVELS, levelColors, photoLogPage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const settings = {
  'GET /settings/colors': () => json(levelColors()),
  'GET /settings/levels': () => json(LEVELS),
};

const marks = (element: HTMLElement): string[] => [...element.querySelectorAll('mark.hit')].map((m) => m.textContent ?? '');

async function search(term: string) {
  fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));
  fireEvent.change(screen.getByLabelText('Search'), { target: { value: term } });
}

describe('search hits', () => {
  it('finds every case-insensitive occurrence, and none for a blank term', () => {
    expect(hitRanges('Sword and SWORD, swordfish', 'sword')).toEqual([
      [0, 5],
      [10, 15],
      [17, 22],
    ]);
    expect(hitRanges('aaaa', 'aa')).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(hitRanges('anything', '  ')).toEqual([]);
  });

  it('marks the term in messages and opens the metadata that holds it on /logs', async () => {
    mockApi({
      ...settings,
      'GET /logs/my': (request) =>
        new URL(request.url).searchParams.get('search') === 'sword'
          ? json(
              [
                apiLog({ id: 'a', message: 'Bob drew a Sword', metadata: { weapon: 'sword_of_doom' } }),
                apiLog({ id: 'b', message: 'no hit in the message', metadata: { item: 'SWORD' } }),
                apiLog({ id: 'c', message: 'Sword only here', metadata: { other: 'thing' } }),
              ],
              { headers: { 'X-Total-Count': '3' } },
            )
          : json([apiLog({ id: 'z', message: 'Sword before searching', metadata: { weapon: 'sword' } })], { headers: { 'X-Total-Count': '1' } }),
    });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const before = await screen.findByText('Sword before searching');
    expect(marks(before)).toEqual([]);
    await search('sword');
    await screen.findByText('no hit in the message');
    const [first, second, third] = screen.getAllByTestId('log-card');
    expect(marks(within(first!).getByText(/Bob drew/))).toEqual(['Sword']);
    expect(first!.querySelector('details')?.open).toBe(true);
    expect(marks(first!.querySelector('pre')!)).toEqual(['sword']);
    expect(marks(second!)).toEqual(['SWORD']);
    expect(second!.querySelector('details')?.open).toBe(true);
    expect(marks(third!)).toEqual(['Sword']);
    expect(third!.querySelector('details')?.open).toBe(false);
  });

  it('marks the term on photo log cards', async () => {
    const photo = apiLog({ id: 'p', log_type: 'photo', message: 'Screenshot of the ARENA', image_path: '/api/photologs/image/p?t=x', thumb_path: '/api/photologs/image/p?t=y' });
    mockApi({ ...settings, 'GET /photologs/my': () => json(photoLogPage([photo])) });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    await screen.findByText('Screenshot of the ARENA');
    await search('arena');
    await waitFor(() => expect(marks(screen.getByTestId('photo-card'))).toEqual(['ARENA']));
  });
});
