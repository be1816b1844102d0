import { lazy, Suspense, useEffect, useState } from 'react';
import { Wallet } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { shortAddress, type SignedIn } from './session.js';
import { FormAlert } from './ui.js';
import { useRbacWords } from './words.js';
import { translate } from '../../../web/storefront/words.js';

/** the step a sign-in attempt is at, for the button's label */
export type WalletStep = 'connect' | 'sign' | 'verify';

/** the wallet errors a visitor can act on, by their EIP-1193 code (also found in a wrapped error's causes): the word to show */
export function walletProblem(e: unknown): 'walletRejected' | 'walletPending' | undefined {
  for (let err = e as { code?: unknown; cause?: unknown } | null | undefined, depth = 0; err && depth < 8; err = err.cause as typeof err, depth++) {
    if (err.code === 4001) return 'walletRejected';
    if (err.code === -32002) return 'walletPending';
  }
  return undefined;
}

/** the same in English */
export function walletMessage(e: unknown): string | undefined {
  const problem = walletProblem(e);
  return problem && translate(`rbac.${problem}`, 'en');
}

/**
 * What the wallet sign-in shows, without any wallet code: the wagmi part draws it with live state,
 * the server and the first browser render draw it idle (the button waits until the wallet code is loaded).
 */
export function WalletPanel({ address, available, error, pending = false, step = 'connect', ready = false, onConnect }: {
  address?: string;
  /** undefined until the browser is asked */
  available?: boolean;
  error?: string;
  pending?: boolean;
  step?: WalletStep;
  ready?: boolean;
  onConnect?: () => void;
}) {
  const w = useRbacWords();
  const label = w(!pending ? 'connectWallet' : step === 'connect' ? 'connecting' : step === 'sign' ? 'waitingSignature' : 'signingIn');
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        {w('walletIntro')}
      </p>
      {address && (
        <p className="flex items-center justify-center gap-2 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm text-slate-700" title={address}>
          <Wallet className="h-4 w-4 text-slate-500" aria-hidden />
          {shortAddress(address)}
        </p>
      )}
      {available === false && <FormAlert>{w('noWallet')}</FormAlert>}
      <FormAlert>{error}</FormAlert>
      <Button variant="primary" onClick={onConnect} disabled={!ready || pending || available === false} aria-busy={pending}>
        <Wallet className="h-4 w-4" aria-hidden />
        {label}
      </Button>
    </div>
  );
}

/** wagmi and its injected connector, loaded only in the browser and only when the wallet method is shown */
const WagmiWalletSignIn = lazy(() => import('./wallet-wagmi.js'));

/**
 * Sign in with an Ethereum wallet (wagmi, injected connector). The server and the hydrating browser
 * render an idle panel; after hydration the wagmi part is loaded and takes over.
 */
export function WalletSignIn({ onSignedIn }: { onSignedIn: (session: SignedIn) => void }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const idle = <WalletPanel />;
  if (!mounted) return idle;
  return (
    <Suspense fallback={idle}>
      <WagmiWalletSignIn onSignedIn={onSignedIn} />
    </Suspense>
  );
}
