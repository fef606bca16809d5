import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { AboutPage } from './about-page';

vi.setConfig({ testTimeout: 20_000 });

describe('AboutPage', () => {
  it('explains where to set the text when none is set', async () => {
    installFakeServer({ 'GET /api/about': () => envelope('') });
    renderInConsole(<AboutPage />);
    expect(await screen.findByText('The administrator has not set any about content yet')).toBeTruthy();
  });
});
