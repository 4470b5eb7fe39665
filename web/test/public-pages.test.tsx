import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import ContactPage from '../src/features/landing/ContactPage.tsx';
import LandingPage from '../src/features/landing/LandingPage.tsx';
import { AppFooter } from '../src/features/shell/AppFooter.tsx';
import { renderScreen } from './helpers.tsx';

describe('Landing page (docs/spec/part-1.txt section 1)', () => {
  it('offers every feature of the spec', () => {
    renderScreen(<LandingPage />);
    for (const title of ['Easy Setup', 'Manage Servers', 'Logs API', 'Secure API Tokens', 'Automated Database Backups', 'Photo Logs']) {
      expect(screen.getByText(title)).toBeTruthy();
    }
    const text = document.body.textContent ?? '';
    expect(text).toMatch(/multiple servers with scoped logs and user roles/);
    expect(text).toMatch(/customizable levels, types and metadata/);
    expect(text).toMatch(/can be regenerated/);
  });

  it('names FiveM and Minecraft as supported games', () => {
    renderScreen(<LandingPage />);
    const games = screen.getByRole('list', { name: 'Supported games' });
    expect(within(games).getByText('FiveM')).toBeTruthy();
    expect(within(games).getByText('Minecraft')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/coming soon/);
  });

  it('sends every Get Started link to /register, as plain links (no button nested in a link)', () => {
    renderScreen(<LandingPage />);
    const links = screen.getAllByRole('link', { name: 'Get Started' });
    expect(links.length).toBe(7); // hero + one per feature card
    for (const link of links) {
      expect(link.getAttribute('href')).toBe('/register');
      expect(link.querySelector('button')).toBeNull();
    }
  });
});

describe('Contact page (docs/spec/part-1.txt sections 2, 5)', () => {
  it('requires name, email and message and sends nothing', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderScreen(<ContactPage />, { path: '/contact' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).type).toBe('email');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please enter your name')).toBeTruthy();
    expect(screen.getByText('Please enter an e-mail address.')).toBeTruthy();
    expect(screen.getByText('Please enter a message')).toBeTruthy();
    expect(screen.queryByText('Message sent!')).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('only shows the "Message sent!" toast, without any server call, and clears the form', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderScreen(<ContactPage />, { path: '/contact' });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ann@example.com' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Message sent!')).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
  });
});

describe('Footer (docs/spec/part-1.txt section 2)', () => {
  it('links to the chat community and the code-hosting page in a new tab without an opener', () => {
    render(
      <MemoryRouter>
        <AppFooter />
      </MemoryRouter>,
    );
    const external = [screen.getByRole('link', { name: 'Discord community' }), screen.getByRole('link', { name: 'GitHub' })];
    expect(external.map((a) => a.getAttribute('href'))).toEqual(['https://discord.gg/skald', 'https://github.com/skald-logs']);
    for (const link of external) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });
});
