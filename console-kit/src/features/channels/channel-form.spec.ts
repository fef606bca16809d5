import { describe, expect, it } from 'vitest';
import { applyTypeDefaults, checkForm, emptyForm, formFromChannel, payloadFromForm } from './channel-form';
import { tagEditPayload } from './channel-dialogs';
import type { Channel } from './channels-api';

const filled = () => ({ ...emptyForm(), name: 'main', key: 'sk-1', models: ['gpt-4o'] });

describe('channel form', () => {
  it('needs name and key on create, a model, valid numbers and valid JSON', () => {
    expect(checkForm({ ...filled(), key: '' }, false).message).toBe('form.required');
    expect(checkForm({ ...filled(), key: '' }, true).message).toBeNull();
    expect(checkForm({ ...filled(), models: [] }, false).message).toBe('form.modelsRequired');
    expect(checkForm({ ...filled(), priority: '-1000' }, false).message).toBe('actions.priorityInvalid');
    expect(checkForm({ ...filled(), weight: 'x' }, false).message).toBe('actions.weightInvalid');
    const bad = checkForm({ ...filled(), model_mapping: '{"a":', status_code_mapping: '{"400":"x"}' }, false);
    expect(bad.message).toBe('form.checkInput');
    expect(bad.json).toEqual({ model_mapping: 'invalid', status_code_mapping: 'badStatusCode' });
    const custom = checkForm({ ...filled(), type: 8 }, false);
    expect(custom).toMatchObject({ message: 'form.extraRequired', missingExtra: 'customUrl' });
    expect(checkForm(filled(), false).message).toBeNull();
  });

  it('takes the rate and concurrency limits as whole numbers within their bounds', () => {
    expect(payloadFromForm(filled())).toMatchObject({ rpm_limit: 0, tpm_limit: 0, concurrency_limit: 0 });
    const limited = { ...filled(), rpm_limit: ' 60 ', tpm_limit: '100000', concurrency_limit: '' };
    expect(checkForm(limited, false).message).toBeNull();
    expect(payloadFromForm(limited)).toMatchObject({
      rpm_limit: 60,
      tpm_limit: 100000,
      concurrency_limit: 0,
    });
    for (const bad of [
      { rpm_limit: '-1' },
      { tpm_limit: '1.5' },
      { concurrency_limit: '100001' },
      { rpm_limit: '1000001' },
      { tpm_limit: 'x' },
    ])
      expect(checkForm({ ...filled(), ...bad }, false).message).toBe('form.limitInvalid');
    const shown = formFromChannel({ rpm_limit: 5, tpm_limit: 0, concurrency_limit: 2 } as unknown as Channel);
    expect(shown).toMatchObject({ rpm_limit: '5', tpm_limit: '0', concurrency_limit: '2' });
  });

  it('builds the payload: trimmed, defaults applied, empty key left out on edit', () => {
    const payload = payloadFromForm({
      ...filled(),
      type: 18,
      base_url: 'https://x.example.com//',
      groups: [],
      weight: '-4',
      batch: true,
    });
    expect(payload).toMatchObject({
      type: 18,
      other: 'v2.1',
      base_url: 'https://x.example.com',
      group: 'default',
      weight: 0,
      key: 'sk-1',
      mode: 'batch',
      auto_ban: 1,
    });
    const edit = payloadFromForm({ ...filled(), key: '  ' }, 5);
    expect(edit.id).toBe(5);
    expect('key' in edit).toBe(false);
    expect('mode' in edit).toBe(false);
  });

  it('switches type defaults without dropping the models the admin chose', () => {
    const mj = applyTypeDefaults(emptyForm(), 2);
    expect(mj.models).toContain('mj_imagine');
    const suno = applyTypeDefaults(mj, 36);
    expect(suno.models).toEqual(['suno_music', 'suno_lyrics']);
    const back = applyTypeDefaults(suno, 1);
    expect(back.models).toEqual([]);
    const chosen = applyTypeDefaults({ ...emptyForm(), models: ['my-model'] }, 36);
    expect(chosen.models).toEqual(['my-model']);
    expect(applyTypeDefaults(emptyForm(), 18).other).toBe('v2.1');
    expect(applyTypeDefaults(applyTypeDefaults(emptyForm(), 18), 1).other).toBe('');
  });

  it('loads a channel with an empty key and lists split', () => {
    const form = formFromChannel({
      id: 1,
      type: 1,
      key: '',
      name: 'c',
      models: 'a, b,a',
      group: 'default,vip',
      priority: 3,
      weight: 2,
      auto_ban: 0,
    } as unknown as Channel);
    expect(form).toMatchObject({
      key: '',
      models: ['a', 'b'],
      groups: ['default', 'vip'],
      priority: '3',
      auto_ban: false,
    });
  });
});

describe('tag edit payload', () => {
  const blank = {
    newTag: '',
    dissolve: false,
    models: '',
    groups: [],
    modelMapping: '',
    priority: '',
    weight: '',
  };
  it('sends only what changed and refuses nothing-to-change', () => {
    expect(tagEditPayload('t', blank)).toBeNull();
    expect(tagEditPayload('t', { ...blank, newTag: 't' })).toBeNull();
    expect(tagEditPayload('t', { ...blank, priority: '5' })).toEqual({ tag: 't', priority: 5 });
    expect(tagEditPayload('t', { ...blank, dissolve: true, newTag: 'x' })).toEqual({ tag: 't', new_tag: '' });
    expect(tagEditPayload('t', { ...blank, models: 'a, b', groups: ['vip'] })).toEqual({
      tag: 't',
      models: 'a,b',
      groups: ['vip'],
    });
    expect(tagEditPayload('t', { ...blank, priority: '1.5' })).toBe('priority');
    expect(tagEditPayload('t', { ...blank, weight: 'x' })).toBe('weight');
    expect(tagEditPayload('t', { ...blank, modelMapping: '{' })).toBe('json');
  });
});
