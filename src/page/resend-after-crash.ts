/**
 * A message whose run the worker died in: was it stored, and is it sent
 * again? Stored if the page saw its event; otherwise the restarted worker
 * says, by the message's id (chosen by the page). One that was not stored is
 * sent once more, by the same id, so that it is stored once whatever
 * happens, and never a third time.
 */
export interface CrashedMessage {
  id: string;
  /** The page saw the message's own event before the worker died. */
  seenStored: boolean;
  /** This run was already the message sent again. */
  resent: boolean;
}

export interface AfterCrash {
  /** undefined: unknown, the worker did not come back. */
  messageStored: boolean | undefined;
  resend: boolean;
  /** What the crash error adds for the person. */
  said: string;
}

export async function afterCrash(
  message: CrashedMessage,
  worker: { restarted(): Promise<void>; hasEvent(id: string): Promise<boolean> },
): Promise<AfterCrash> {
  const stored: AfterCrash = {
    messageStored: true,
    resend: false,
    said: ' Your message was stored before the worker stopped.',
  };
  if (message.seenStored) return stored;
  try {
    await worker.restarted();
    if (await worker.hasEvent(message.id)) return stored;
  } catch {
    return {
      messageStored: undefined,
      resend: false,
      said: ' Whether your message was stored is unknown: the worker did not come back.',
    };
  }
  if (message.resent)
    return {
      messageStored: false,
      resend: false,
      said: ' Your message had not been stored, and was not sent a third time.',
    };
  return {
    messageStored: false,
    resend: true,
    said: ' Your message had not been stored; it was sent again to the restarted worker.',
  };
}
