import { describe, expect, test } from 'vitest';
import { afterCrash } from '../../src/page/resend-after-crash';

const worker = (stored: boolean | 'gone') => ({
  restarted: async () => {
    if (stored === 'gone') throw new Error('not restarted');
  },
  hasEvent: async () => stored === true,
});

describe('a message whose worker died before it was known to be stored', () => {
  test('seen stored by the page: stored, not sent again, without asking the worker', async () => {
    const asked: string[] = [];
    const verdict = await afterCrash(
      { id: 'm1', seenStored: true, resent: false },
      {
        restarted: async () => void asked.push('restarted'),
        hasEvent: async () => (asked.push('hasEvent'), false),
      },
    );
    expect(verdict).toMatchObject({ messageStored: true, resend: false });
    expect(asked).toEqual([]);
  });

  test('the restarted worker holds it: stored, not sent again', async () => {
    expect(await afterCrash({ id: 'm1', seenStored: false, resent: false }, worker(true))).toMatchObject({
      messageStored: true,
      resend: false,
    });
  });

  test('not stored: sent again once, by the same id; a message sent again already is not sent a third time', async () => {
    expect(await afterCrash({ id: 'm1', seenStored: false, resent: false }, worker(false))).toMatchObject({
      messageStored: false,
      resend: true,
      said: expect.stringMatching(/sent again/),
    });
    expect(await afterCrash({ id: 'm1', seenStored: false, resent: true }, worker(false))).toMatchObject({
      messageStored: false,
      resend: false,
      said: expect.stringMatching(/not sent a third time/),
    });
  });

  test('no worker came back: unknown, and nothing is sent', async () => {
    expect(await afterCrash({ id: 'm1', seenStored: false, resent: false }, worker('gone'))).toMatchObject({
      messageStored: undefined,
      resend: false,
      said: expect.stringMatching(/unknown/),
    });
  });
});
