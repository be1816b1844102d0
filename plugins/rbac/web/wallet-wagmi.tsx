import { useEffect, useRef, useState } from 'react';
import { custom, type Address } from 'viem';
import { mainnet } from 'viem/chains';
import { createSiweMessage } from 'viem/siwe';
import { WagmiProvider, createConfig, injected, useConnection, useConnect, useConnectors, useDisconnect, useSignMessage, type Config } from 'wagmi';
import { AUTH, http, storedRefresh, storeRefresh, type SignedIn } from './session.js';
import { useAction } from './ui.js';
import { WalletPanel, walletProblem, type WalletStep } from './wallet.js';
import { useRbacWords } from './words.js';

/** how long the signed message is good for; the server's nonce lives 10 minutes */
export const MESSAGE_TTL_MS = 5 * 60 * 1000;

/**
 * The text the wallet signs: a Sign-In with Ethereum (EIP-4361) message naming this site (domain
 * and uri from the page's own address), the chain, the account, the server's nonce and its time
 * window. The server checks every one of them, so a signature asked for elsewhere does not work here.
 */
export function signInMessage({ address, nonce, location = window.location, chainId = mainnet.id, now = new Date() }: {
  address: Address;
  nonce: string;
  location?: Pick<Location, 'host' | 'origin'>;
  chainId?: number;
  now?: Date;
}): string {
  return createSiweMessage({
    domain: location.host,
    uri: location.origin,
    address,
    chainId,
    nonce,
    version: '1',
    statement: `Sign in to ${location.host}`,
    issuedAt: now,
    expirationTime: new Date(now.getTime() + MESSAGE_TTL_MS),
  });
}

/**
 * The wallet sign-in's wagmi config: the injected connector only (window.ethereum), no EIP-6963
 * discovery, and an RPC transport that is never used (signing goes to the wallet, and nothing here
 * reads the chain), so neither loading nor signing in makes a network request.
 */
export function createWalletConfig(): Config {
  return createConfig({
    chains: [mainnet],
    connectors: [injected()],
    multiInjectedProviderDiscovery: false,
    transports: {
      [mainnet.id]: custom({
        async request({ method }: { method: string }) {
          throw new Error(`The wallet sign-in makes no RPC requests (${method})`);
        },
      }),
    },
    ssr: true,
  });
}

/**
 * Sign in with an Ethereum wallet through wagmi's injected connector: connect, take a nonce from
 * `init`, have the wallet sign an EIP-4361 message holding it, and let the server check the
 * message and the signature (spec §4, §5).
 * One attempt at a time; the wallet is disconnected after a failed attempt, and whenever it is
 * connected while the browser holds no session (refresh) token outside an attempt.
 */
function WalletFlow({ onSignedIn }: { onSignedIn: (session: SignedIn) => void }) {
  const w = useRbacWords();
  const connector = useConnectors()[0]!;
  const connection = useConnection();
  const { mutateAsync: connect } = useConnect();
  const { mutateAsync: signMessage } = useSignMessage();
  const { mutateAsync: disconnect } = useDisconnect();
  // undefined until the browser is asked (in an effect: never during render)
  const [available, setAvailable] = useState<boolean>();
  const [step, setStep] = useState<WalletStep>('connect');
  const attempt = useRef(false);
  const action = useAction();

  useEffect(() => {
    let live = true;
    void connector.getProvider().then(
      (provider) => live && setAvailable(!!provider),
      () => live && setAvailable(false),
    );
    return () => {
      live = false;
    };
  }, [connector]);

  // spec §4: a wallet connected without a session token (a reconnect, an outside connect) ends
  useEffect(() => {
    if (connection.status === 'connected' && !attempt.current && !storedRefresh()) void disconnect({ connector }).catch(() => undefined);
  }, [connection.status, connector, disconnect]);

  const signIn = () =>
    action.run(async () => {
      if (attempt.current) return;
      attempt.current = true;
      try {
        if (!(await connector.getProvider())) {
          setAvailable(false);
          return;
        }
        setStep('connect');
        let account: Address | undefined = connection.status === 'connected' && connection.connector?.uid === connector.uid ? connection.address : undefined;
        if (!account) account = (await connect({ connector })).accounts[0];
        if (!account) throw new Error('No account found');
        const { nonce } = await http.request<{ nonce: string }>('GET', `${AUTH}/init`);
        const message = signInMessage({ address: account, nonce });
        setStep('sign');
        const signature = await signMessage({ message, account, connector });
        setStep('verify');
        const session = await http.request<SignedIn>('POST', `${AUTH}/ethereum-virtual-machine`, { data: { message, signature, address: account } });
        storeRefresh(session.refresh);
        onSignedIn(session);
      } catch (e) {
        setStep('connect');
        // spec §4: an authentication error ends the wallet session
        await disconnect({ connector }).catch(() => undefined);
        const problem = walletProblem(e);
        const known = problem && w(problem);
        const short = (e as { shortMessage?: unknown } | null)?.shortMessage;
        throw known ? new Error(known) : typeof short === 'string' && short ? new Error(short) : e;
      } finally {
        attempt.current = false;
      }
    });

  return (
    <WalletPanel
      address={connection.status === 'connected' ? connection.address : undefined}
      available={available}
      error={action.error}
      pending={action.pending}
      step={step}
      ready={available !== undefined}
      onConnect={signIn}
    />
  );
}

/** the wagmi provider around the wallet sign-in only (lazy-loaded; it uses the page's query client) */
export default function WagmiWalletSignIn({ onSignedIn }: { onSignedIn: (session: SignedIn) => void }) {
  const [config] = useState(createWalletConfig);
  return (
    <WagmiProvider config={config}>
      <WalletFlow onSignedIn={onSignedIn} />
    </WagmiProvider>
  );
}
