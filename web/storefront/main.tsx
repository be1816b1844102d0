import { createRoot } from 'react-dom/client';
import '../styles.css';

/** the storefront's client entry; pages are server-rendered and hydrated once the storefront issue lands */
function Storefront() {
  return (
    <main className="mx-auto max-w-7xl p-8">
      <h1 className="text-2xl font-semibold">Storefront</h1>
      <p className="mt-2 text-slate-600">
        The admin is at <a className="underline" href="/admin/">/admin/</a>.
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Storefront />);
