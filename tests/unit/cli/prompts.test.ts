import { describe, expect, it } from 'vitest';
import { askConfirm, askPassword, askSelect, askText, canPrompt } from '../../../cli/prompts.ts';
import { UsageError } from '../../../cli/errors.ts';

// The test runner has no terminal, so every prompt takes its non-interactive path.
describe('prompts without a terminal', () => {
  it('cannot prompt', () => {
    expect(canPrompt()).toBe(false);
  });

  it('askText returns the default when one is given', async () => {
    await expect(askText({ message: 'Project name?', flag: '--name', defaultValue: 'tessera' })).resolves.toBe('tessera');
    await expect(askText({ message: 'Project name?', flag: '--name', defaultValue: '' })).resolves.toBe('');
  });

  it('askText without a default throws a UsageError naming the flag', async () => {
    const asking = askText({ message: 'Admin e-mail?', flag: '--email' });
    await expect(asking).rejects.toBeInstanceOf(UsageError);
    await expect(asking).rejects.toThrow('--email');
  });

  it('askPassword with allowEmpty returns an empty string', async () => {
    await expect(askPassword({ message: 'Password?', flag: '--password', allowEmpty: true })).resolves.toBe('');
  });

  it('askPassword without allowEmpty throws a UsageError naming the flag', async () => {
    await expect(askPassword({ message: 'Password?', flag: '--password' })).rejects.toThrow(new UsageError('Missing --password (no terminal to ask on; pass the flag).'));
  });

  it('askSelect returns the default or names the flag', async () => {
    const choices = [{ value: 'pglite', label: 'Embedded' }, { value: 'postgres', label: 'PostgreSQL' }];
    await expect(askSelect({ message: 'Database?', flag: '--db', choices, defaultValue: 'postgres' })).resolves.toBe('postgres');
    await expect(askSelect({ message: 'Database?', flag: '--db', choices })).rejects.toThrow('--db');
  });

  it('askConfirm returns the fallback', async () => {
    await expect(askConfirm({ message: 'Continue?', fallback: false })).resolves.toBe(false);
    await expect(askConfirm({ message: 'Continue?', fallback: true })).resolves.toBe(true);
  });

  it('askConfirm returns true with yes, whatever the fallback', async () => {
    await expect(askConfirm({ message: 'Overwrite?', fallback: false, yes: true })).resolves.toBe(true);
  });
});
