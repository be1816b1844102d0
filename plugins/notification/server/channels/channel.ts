/** one rendered message to one recipient */
export interface Outgoing {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A way of delivering notifications. `configured` is false when its setting is missing: its rows then stay
 * 'new' (the outbox) and nothing tries to deliver them.
 */
export interface Channel {
  readonly name: 'email' | 'telegram';
  readonly configured: boolean;
  /** delivers or throws an Error whose message says why (kept on the row as its last error) */
  send(message: Outgoing): Promise<void>;
}
