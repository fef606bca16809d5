import type { Midjourney } from '../../../database/entities';
import { RelayError } from '../../relay';
import {
  actionOfCustomId,
  clearModes,
  mjModel,
  mjPatch,
  parseSimpleChange,
  planMj,
  scrubProperties,
  upstreamBody,
} from './mj-wire';

const row = (over: Partial<Midjourney> = {}): Midjourney =>
  ({
    id: 1,
    status: 'SUBMITTED',
    progress: '0%',
    image_url: '',
    fail_reason: '',
    prompt_en: '',
    start_time: 0,
    finish_time: 0,
    buttons: '[]',
    properties: null,
    ...over,
  }) as Midjourney;

describe('Midjourney wire format', () => {
  it('names the action of every plus button as midjourney-proxy-plus does', () => {
    expect(actionOfCustomId('MJ::JOB::upsample::2::3dbbd469-36af-4a0f-8f02-df6c579e7011')).toBe('UPSCALE');
    expect(actionOfCustomId('MJ::JOB::upsample_v6_2x_subtle::1::abc::SOLO')).toBe('UPSCALE');
    expect(actionOfCustomId('MJ::JOB::variation::3::abc')).toBe('VARIATION');
    expect(actionOfCustomId('MJ::JOB::low_variation::1::abc::SOLO')).toBe('LOW_VARIATION');
    expect(actionOfCustomId('MJ::JOB::high_variation::1::abc::SOLO')).toBe('HIGH_VARIATION');
    expect(actionOfCustomId('MJ::JOB::pan_left::1::abc::SOLO')).toBe('PAN');
    expect(actionOfCustomId('MJ::JOB::reroll::0::abc::SOLO')).toBe('REROLL');
    expect(actionOfCustomId('MJ::Outpaint::50::1::abc::SOLO')).toBe('ZOOM');
    expect(actionOfCustomId('MJ::CustomZoom::abc')).toBe('CUSTOM_ZOOM');
    expect(actionOfCustomId('MJ::Inpaint::1::abc::SOLO')).toBe('INPAINT');
    for (const bad of ['', 'MJ', 'MJ::JOB', 'XX::JOB::upsample::1', 'MJ::JOB::explode::1::a'])
      expect(() => actionOfCustomId(bad)).toThrow(RelayError);
  });

  it('parses simple changes and refuses anything else', () => {
    expect(parseSimpleChange('1320098173412546 U2')).toEqual({
      taskId: '1320098173412546',
      action: 'UPSCALE',
    });
    expect(parseSimpleChange(' 1320098173412546   v4 ')).toEqual({
      taskId: '1320098173412546',
      action: 'VARIATION',
    });
    expect(parseSimpleChange('1320098173412546 R')).toEqual({ taskId: '1320098173412546', action: 'REROLL' });
    for (const bad of ['1 U5', '1 U0', '1 X1', '1', '1 U1 extra', 'a/b U1'])
      expect(() => parseSimpleChange(bad)).toThrow(RelayError);
  });

  it('bills each action as its model', () => {
    expect(mjModel('IMAGINE')).toBe('mj_imagine');
    expect(mjModel('UPSCALE')).toBe('mj_upscale');
    expect(mjModel('HIGH_VARIATION')).toBe('mj_variation');
    expect(mjModel('INPAINT')).toBe('mj_modal');
    expect(mjModel('SWAP_FACE')).toBe('swap_face');
  });

  it('plans submissions and refuses wrong types', () => {
    expect(planMj('imagine', { prompt: 'cat', state: 's' })).toMatchObject({
      action: 'IMAGINE',
      prompt: 'cat',
      state: 's',
      originId: null,
    });
    expect(planMj('change', { action: 'reroll', taskId: '123' })).toMatchObject({
      action: 'REROLL',
      originId: '123',
    });
    expect(planMj('modal', { taskId: '9', prompt: 'p' })).toMatchObject({
      action: 'MODAL',
      originId: '9',
      prompt: 'p',
    });
    expect(() => planMj('imagine', { prompt: 'x', accountFilter: [] })).toThrow(RelayError);
    expect(() => planMj('imagine', { prompt: 'x', state: {} })).toThrow(RelayError);
    expect(() => planMj('change', { action: 'UPSCALE', index: 1.5, taskId: '1' })).toThrow(RelayError);
    expect(() => planMj('imagine', { prompt: 'x', nested: { deep: 'a\u0000b' } })).toThrow(RelayError);
  });

  it('builds the upstream body from the switches', () => {
    const body = {
      prompt: 'a --fast b --turbo',
      notifyHook: 'https://caller.example/hook',
      accountFilter: { x: 1 },
    };
    expect(upstreamBody(body, { accountFilter: false, modeClear: false, notifyHook: '' })).toEqual({
      prompt: 'a --fast b --turbo',
    });
    expect(
      upstreamBody(body, { accountFilter: true, modeClear: true, notifyHook: 'https://gw/mj/notify?x' }),
    ).toEqual({
      prompt: 'a b',
      accountFilter: { x: 1 },
      notifyHook: 'https://gw/mj/notify?x',
    });
    expect(clearModes('--relax only')).toBe('only');
    expect(clearModes('keep --fastest')).toBe('keep --fastest');
  });

  it('never keeps the callback address in properties', () => {
    expect(
      scrubProperties({
        notifyHook: 'https://gw/mj/notify?sig=1',
        finalPrompt: 'x',
        other: 'https://gw/mj/notify?a',
      }),
    ).toEqual({ finalPrompt: 'x' });
    expect(scrubProperties([1])).toBeNull();
  });

  it('moves a task forward from the proxy’s task object and decides how it ended', () => {
    const now = 1_700_000_000_000;
    expect(mjPatch(row(), { status: 'IN_PROGRESS', progress: '40%' }, now)).toMatchObject({
      fields: { status: 'IN_PROGRESS', progress: '40%', start_time: now },
      outcome: null,
    });
    const ok = mjPatch(
      row({ status: 'IN_PROGRESS', start_time: 5 }),
      { status: 'SUCCESS', progress: '100%', imageUrl: 'https://cdn/x.png', finishTime: 9 },
      now,
    );
    expect(ok).toMatchObject({
      fields: { status: 'SUCCESS', image_url: 'https://cdn/x.png', finish_time: 9 },
      outcome: 'success',
    });
    // A failure reason before 100 % is a failure, whatever the status says.
    expect(
      mjPatch(row(), { status: 'IN_PROGRESS', progress: '10%', failReason: 'banned' }, now),
    ).toMatchObject({
      fields: { status: 'FAILURE', progress: '100%', fail_reason: 'banned' },
      outcome: 'failure',
    });
    expect(mjPatch(row(), { status: 'CANCEL' }, now).outcome).toBe('failure');
    // Junk is ignored rather than stored.
    expect(
      mjPatch(
        row(),
        { status: 'WHATEVER', progress: 'lots', imageUrl: 'javascript:alert(1)', startTime: -1 },
        now,
      ),
    ).toEqual({
      fields: {},
      upstream: null,
      outcome: null,
    });
  });
});
