import { useEffect, useState } from 'react';
import { Wallet } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { AUTH, http, shortAddress, storeRefresh, type SignedIn } from './session.js';
import { FormAlert, useAction } from './ui.js';

/** an EIP-1193 provider as wallets inject it (window.ethereum) */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export const injectedProvider = (): Eip1193Provider | undefined => (window as unknown as { ethereum?: Eip1193Provider }).ethereum;

/** the text the wallet signs: it carries the server's nonce and is at least 8 characters (spec §5) */
export const signInMessage = (host: string, nonce: string) => `Sign in to ${host}\nNonce: ${nonce}`;

/** UTF-8 text as 0x-hex, the form personal_sign expects across wallets */
const toHex = (text: string) => '0x' + Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('');

function walletMessage(e: unknown): string | undefined {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (err && err.code === 4001) return 'The request was rejected in the wallet';
  if (err && err.code === -32002) return 'Your wallet already has a pending request: open it to continue';
  return undefined;
}

/**
 * Sign in with an Ethereum wallet through the injected provider (no wagmi): request the account,
 * take a nonce from `init`, have the wallet sign it, and let the server check the signature.
 * One attempt at a time.
 */
export function WalletSignIn({ onSignedIn }: { onSignedIn: (session: SignedIn) => void }) {
  // undefined until the browser is asked (never during render: the server has no window)
  const [available, setAvailable] = useState<boolean>();
  const [address, setAddress] = useState<string>();
  const [step, setStep] = useState<'connect' | 'sign' | 'verify'>('connect');
  const action = useAction();

  useEffect(() => setAvailable(!!injectedProvider()), []);

  const connect = () =>
    action.run(async () => {
      const provider = injectedProvider();
      if (!provider) {
        setAvailable(false);
        return;
      }
      try {
        setStep('connect');
        const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
        const account = accounts?.[0];
        if (!account) throw new Error('No account found');
        setAddress(account);
        const { nonce } = await http.request<{ nonce: string }>('GET', `${AUTH}/init`);
        const message = signInMessage(window.location.host, nonce);
        setStep('sign');
        const signature = (await provider.request({ method: 'personal_sign', params: [toHex(message), account] })) as string;
        setStep('verify');
        const session = await http.request<SignedIn>('POST', `${AUTH}/ethereum-virtual-machine`, { data: { message, signature, address: account } });
        storeRefresh(session.refresh);
        onSignedIn(session);
      } catch (e) {
        setStep('connect');
        const known = walletMessage(e);
        throw known ? new Error(known) : e;
      }
    });

  const label = !action.pending ? 'Connect wallet' : step === 'connect' ? 'Connecting...' : step === 'sign' ? 'Waiting for signature...' : 'Signing in...';

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        Connect a browser wallet such as MetaMask and sign a one-time message. Signing is free and sends no transaction.
      </p>
      {address && (
        <p className="flex items-center justify-center gap-2 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm text-slate-700" title={address}>
          <Wallet className="h-4 w-4 text-slate-500" aria-hidden />
          {shortAddress(address)}
        </p>
      )}
      {available === false && <FormAlert>No wallet found in this browser</FormAlert>}
      <FormAlert>{action.error}</FormAlert>
      <Button variant="primary" onClick={connect} disabled={action.pending || available === false} aria-busy={action.pending}>
        <Wallet className="h-4 w-4" aria-hidden />
        {label}
      </Button>
    </div>
  );
}
