import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Variant, type Expanded } from '../../../web/storefront/context.js';
import { browserSandbox, fail, ME, mockFetch, ok, renderPage } from '../../rbac/web/test-utils.js';
import { registerEcommerceWeb } from './index.js';
import { loadChunks } from '../../../web/registry.js';
import { cartDrawer, type Order } from './shop-api.js';

beforeAll(async () => {
  registerEcommerceWeb();
  await loadChunks();
});
const sandbox = browserSandbox();
beforeEach(() => cartDrawer.set(false));

const usd = { id: 'c-usd', slug: 'usd', symbol: '$', isDefault: true };
const rub = { id: 'c-rub', slug: 'rub', symbol: '₽', isDefault: false };
const priced = (id: string, amount: number, currency: object) => ({ id: `pa-${id}`, variant: 'default', attribute: { id, variant: 'default', number: amount, attributesToBillingModuleCurrencies: [{ id: `ac-${id}`, variant: 'default', billingModuleCurrency: currency }] } });
const book: Expanded = { id: 'p-book', variant: 'default', slug: 'book', title: { en: 'Book', ru: 'Книга' }, productsToAttributes: [priced('a1', 12.5, usd), priced('a2', 990, rub)] };
const ME_PATH = '/api/rbac/subjects/authentication/me';
const SHOP = `/api/rbac/subjects/${ME.id}/ecommerce-module`;
const PROVIDERS = ok({ providers: ['dummy', 'stripe'], default: 'dummy' });

const line = (quantity: number) => ({
  id: 'l-1', orderId: 'o-1', productId: book.id, quantity, product: { id: book.id, slug: 'book', title: book.title, adminTitle: 'Book', type: 'one_off' },
  prices: [{ currency: usd, amount: 12.5 }, { currency: rub, amount: 990 }],
  totals: [{ currency: usd, amount: 12.5 * quantity }, { currency: rub, amount: 990 * quantity }],
});
const cart = (quantity: number): Order => ({
  id: 'o-1', status: 'new', type: 'cart', receipt: '', comment: null, createdAt: '2026-01-01T00:00:00.000Z',
  ordersToProducts: [line(quantity)], totals: [], quantity, currency: null, invoices: [],
});

const product = (variant: string) => <Variant module="ecommerce" entity="product" variant={variant} row={book} />;

describe('product cart-default', () => {
  it('asks a visitor to sign in', async () => {
    mockFetch({});
    renderPage(product('cart-default'));
    expect(await screen.findByRole('link', { name: 'Login to buy' })).toBeTruthy();
  });

  it("adds to the cart ('Adding...' while pending, then 'Updated successfully'); then shows update, delete and checkout", async () => {
    let release!: () => void;
    const calls = mockFetch({
      [`GET ${ME_PATH}`]: ok(ME),
      [`GET ${SHOP}/orders`]: [ok([]), ok([cart(2)])],
      [`POST ${SHOP}/orders`]: () => new Promise((r) => (release = () => r({ status: 201, body: { data: cart(2) } }))),
    });
    renderPage(product('cart-default'));
    const user = userEvent.setup();
    const quantity = await screen.findByLabelText('Quantity');
    await user.clear(quantity);
    await user.type(quantity, '2');
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByRole('button', { name: 'Adding...' })).toBeTruthy();
    release();
    expect(await screen.findByText('Updated successfully')).toBeTruthy();
    expect(calls.find('POST', `${SHOP}/orders`)[0].data).toEqual({ productId: book.id, quantity: 2 });
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeTruthy();
    expect(screen.getByLabelText('Quantity in the cart').textContent).toBe('2');
  });

  it('shows the server error as a toast', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([]), [`POST ${SHOP}/orders`]: fail(400, "Product doesn't have price attributes connected to billing module currency.") });
    renderPage(product('cart-default'));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByText(/Product doesn't have price attributes/)).toBeTruthy();
  });

  it('one step checkout shows the price and goes to the payment url', async () => {
    const calls = mockFetch({
      [`GET ${ME_PATH}`]: ok(ME),
      [`GET ${SHOP}/orders`]: ok([]),
      'GET /api/billing/providers': PROVIDERS,
      [`POST ${SHOP}/products/${book.id}/checkout`]: { status: 201, body: { data: { billingModule: { invoices: [{ id: 'i', paymentUrl: '/billing/dummy/checkout/i?token=t' }] } } } },
    });
    renderPage(product('cart-default'));
    fireEvent.click(await screen.findByRole('button', { name: 'Buy now in one step' }));
    const button = await screen.findByRole('button', { name: 'One step checkout $12.50' });
    fireEvent.click(within(screen.getByRole('radiogroup', { name: 'Currency' })).getByRole('radio', { name: 'RUB' }));
    expect(screen.getByRole('button', { name: 'One step checkout ₽990' })).toBe(button);
    await waitFor(() => expect((screen.getByLabelText('Payment provider') as HTMLSelectElement).value).toBe('dummy'));
    fireEvent.click(button);
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/billing/dummy/checkout/i?token=t'));
    expect(calls.find('POST', `${SHOP}/products/${book.id}/checkout`)[0].data).toEqual({ provider: 'dummy', email: 'ada@example.com', language: 'en', quantity: 1, billingModule: { currency: { id: rub.id } } });
  });
});

describe('price and currency toggle', () => {
  it('price-default shows the chosen currency; the toggle group switches it with the keyboard too', async () => {
    mockFetch({});
    renderPage(product('overview-default'));
    const prices = screen.getByTestId('prices');
    expect(prices.firstElementChild!.textContent).toBe('$12.50');
    const group = screen.getByRole('radiogroup', { name: 'Currency' });
    const [first] = within(group).getAllByRole('radio');
    expect(first.getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    expect(screen.getByTestId('prices').firstElementChild!.textContent).toBe('₽990');
  });
});

describe('cart drawer (widget cart-default)', () => {
  const widget: Expanded = { id: 'w-cart', variant: 'cart-default' };

  it('renders nothing for a visitor', async () => {
    mockFetch({});
    const { container } = renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    await new Promise((r) => setTimeout(r, 0));
    expect(container.querySelector('button')).toBeNull();
  });

  it('in Russian: the drawer, the order card and the checkout form speak Russian', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([{ ...cart(3), status: 'paying' }]), 'GET /api/billing/providers': PROVIDERS });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />, { language: 'ru' });
    fireEvent.click(await screen.findByRole('button', { name: 'Открыть корзину, товаров: 3' }));
    const drawer = await screen.findByRole('dialog', { name: 'Корзина' });
    const card = within(drawer).getByRole('article', { name: 'Заказ №o-1' });
    expect(within(card).getByText('Ожидает оплаты')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Увеличить количество: Книга' })).toBeTruthy();
    expect(within(card).getByText('Итого')).toBeTruthy();
    expect(await within(drawer).findByRole('option', { name: 'Тестовая оплата (dummy)' })).toBeTruthy();
    expect(within(drawer).getByLabelText('Способ оплаты')).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: /^Оформить заказ/ })).toBeTruthy();
    for (const english of ['Order', 'Total', 'Quantity', 'Checkout', 'Waiting for payment', 'Payment provider', 'Invoice email', 'Close']) {
      expect(drawer.textContent + [...drawer.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join(' '), english).not.toContain(english);
    }
  });

  it('opens from the icon with the quantity badge: Cart, the order card, and checkout in the chosen currency', async () => {
    const calls = mockFetch({
      [`GET ${ME_PATH}`]: ok(ME),
      [`GET ${SHOP}/orders`]: [ok([cart(3)]), ok([cart(4)])],
      'GET /api/billing/providers': PROVIDERS,
      [`PATCH ${SHOP}/orders/o-1`]: ok(cart(4)),
      [`POST ${SHOP}/orders/checkout`]: { status: 201, body: { data: { billingModule: { invoices: [{ id: 'i', paymentUrl: 'https://checkout.stripe.com/c/pay/cs_1' }] } } } },
    });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    const open = await screen.findByRole('button', { name: 'Open cart, 3 items' });
    expect(screen.getByTestId('cart-badge').textContent).toBe('3');
    fireEvent.click(open);
    const drawer = await screen.findByRole('dialog', { name: 'Cart' });
    const card = within(drawer).getByRole('article', { name: 'Order #o-1' });
    expect(within(card).getByRole('link', { name: 'Book' })).toBeTruthy();
    expect(within(card).getByTestId('order-quantity').textContent).toBe('3');
    expect(within(card).getByTestId('order-total').textContent).toBe('$37.50 · ₽2970');
    fireEvent.click(within(card).getByRole('button', { name: 'Increase quantity of Book' }));
    await waitFor(() => expect(calls.find('PATCH', `${SHOP}/orders/o-1`)[0]?.data).toEqual({ ordersToProducts: [{ id: 'l-1', quantity: 4 }] }));
    await waitFor(() => expect(within(drawer).getByTestId('order-total').textContent).toBe('$50 · ₽3960'));

    await user().selectOptions(within(drawer).getByLabelText('Payment provider'), 'stripe');
    await user().clear(within(drawer).getByLabelText('Invoice email'));
    await user().type(within(drawer).getByLabelText('Invoice email'), 'nope');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Checkout $50' }));
    expect(await within(drawer).findByText('Enter a valid email address')).toBeTruthy();
    await user().clear(within(drawer).getByLabelText('Invoice email'));
    await user().type(within(drawer).getByLabelText('Invoice email'), 'gift@example.com');
    await user().type(within(drawer).getByLabelText('Comment'), 'Wrap it');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Checkout $50' }));
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1'));
    expect(calls.find('POST', `${SHOP}/orders/checkout`)[0].data).toEqual({
      provider: 'stripe', email: 'gift@example.com', comment: 'Wrap it', language: 'en', billingModule: { currency: { id: usd.id } }, ecommerceModule: { orders: [{ id: 'o-1' }] },
    });
  });

  it('with no payment provider switched on, a message stands in for the empty select and the disabled button is described by it', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(2)]), 'GET /api/billing/providers': ok({ providers: [], default: null }) });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open cart, 2 items' }));
    const form = within(await screen.findByRole('dialog', { name: 'Cart' })).getByRole('form', { name: 'Checkout' });
    const message = await within(form).findByText(/^No payment method is available yet/);
    expect(message.getAttribute('role')).toBe('status');
    expect(form.querySelector('select')).toBeNull();
    expect(within(form).queryByRole('combobox')).toBeNull();
    const button = within(form).getByRole('button', { name: 'Checkout $25' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-describedby')).toBe(message.id);
    await user().type(within(form).getByLabelText('Comment'), 'Later then');
    expect(button).toHaveProperty('disabled', true);
  });

  it('in Russian, and when the providers cannot be loaded, it says that instead', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(1)]), 'GET /api/billing/providers': ok({ providers: [], default: null }) });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />, { language: 'ru' });
    fireEvent.click(await screen.findByRole('button', { name: 'Открыть корзину, товаров: 1' }));
    const drawer = await screen.findByRole('dialog', { name: 'Корзина' });
    expect(await within(drawer).findByText(/^Способов оплаты пока нет/)).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: /^Оформить заказ/ })).toHaveProperty('disabled', true);
    cleanup();
    cartDrawer.set(false);

    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(1)]), 'GET /api/billing/providers': fail(500, 'Internal Server Error') });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open cart, 1 item' }));
    const form = within(await screen.findByRole('dialog', { name: 'Cart' })).getByRole('form', { name: 'Checkout' });
    expect(await within(form).findByText('The payment methods could not be loaded. Reload the page to try again.')).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Checkout $12.50' })).toHaveProperty('disabled', true);
  });

  it("a failed checkout's error goes once a field is edited or the form is sent again", async () => {
    const calls = mockFetch({
      [`GET ${ME_PATH}`]: ok(ME),
      [`GET ${SHOP}/orders`]: ok([cart(1)]),
      'GET /api/billing/providers': PROVIDERS,
      [`POST ${SHOP}/orders/checkout`]: [fail(502, 'The payment provider did not answer'), fail(502, 'The payment provider did not answer')],
    });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open cart, 1 item' }));
    const form = within(await screen.findByRole('dialog', { name: 'Cart' })).getByRole('form', { name: 'Checkout' });
    await waitFor(() => expect((within(form).getByLabelText('Payment provider') as HTMLSelectElement).value).toBe('dummy'));
    fireEvent.click(within(form).getByRole('button', { name: 'Checkout $12.50' }));
    expect(await within(form).findByText('The payment provider did not answer')).toBeTruthy();
    await user().type(within(form).getByLabelText('Comment'), 'x');
    expect(within(form).queryByText('The payment provider did not answer')).toBeNull();

    fireEvent.click(within(form).getByRole('button', { name: 'Checkout $12.50' }));
    expect(await within(form).findByText('The payment provider did not answer')).toBeTruthy();
    await user().clear(within(form).getByLabelText('Invoice email'));
    await user().type(within(form).getByLabelText('Invoice email'), 'nope');
    fireEvent.click(within(form).getByRole('button', { name: 'Checkout $12.50' }));
    expect(await within(form).findByText('Enter a valid email address')).toBeTruthy();
    expect(within(form).queryByText('The payment provider did not answer')).toBeNull();
    expect(calls.find('POST', `${SHOP}/orders/checkout`)).toHaveLength(2);
  });

  it('says so when the cart is empty', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([]) });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open cart, 0 items' }));
    expect(await screen.findByText('Your cart is empty')).toBeTruthy();
  });
});

describe('orders page (widget order-list-default)', () => {
  const widget: Expanded = { id: 'w-orders', variant: 'order-list-default' };

  it('lists the orders with status and receipt; asks a visitor to sign in', async () => {
    const paid: Order = { ...cart(2), id: 'o-2', status: 'approving', type: 'history', receipt: '/files/r.png', currency: usd, invoices: [{ id: 'i', status: 'paid', provider: 'dummy', amount: 25, paymentUrl: null }] };
    const waiting: Order = { ...cart(1), id: 'o-3', status: 'paying', type: 'history', invoices: [{ id: 'j', status: 'open', provider: 'dummy', amount: 12.5, paymentUrl: '/pay/j' }] };
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([waiting, paid, cart(5)]) });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    const list = await screen.findByRole('list', { name: 'Orders' });
    const cards = within(list).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Order #o-3', 'Order #o-2']);
    expect(within(cards[0]).getByText('Waiting for payment')).toBeTruthy();
    expect(within(cards[0]).getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe('/pay/j');
    expect(within(cards[1]).getByText('Paid, being approved')).toBeTruthy();
    expect(within(cards[1]).getByRole('link', { name: /Receipt/ }).getAttribute('href')).toBe('/files/r.png');
  });

  it('asks a visitor to sign in', async () => {
    mockFetch({});
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    expect(await screen.findByText('Sign in to see your orders.')).toBeTruthy();
  });

  it('a stored receipt or payment url that fails the link allow-list is not drawn (no javascript: link or image)', async () => {
    const paid: Order = { ...cart(2), id: 'o-4', status: 'approving', type: 'history', receipt: 'javascript:alert(document.domain)', currency: usd, invoices: [{ id: 'i', status: 'paid', provider: 'dummy', amount: 25, paymentUrl: null }] };
    const waiting: Order = { ...cart(1), id: 'o-5', status: 'paying', type: 'history', invoices: [{ id: 'j', status: 'open', provider: 'dummy', amount: 12.5, paymentUrl: 'JavaScript:alert(1)' }] };
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([waiting, paid]) });
    const { container } = renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    const cards = within(await screen.findByRole('list', { name: 'Orders' })).getAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).queryByRole('link', { name: 'Pay now' })).toBeNull();
    expect(within(cards[1]).queryByRole('link', { name: /Receipt/ })).toBeNull();
    expect(container.innerHTML.toLowerCase()).not.toContain('javascript:');
  });
});

const user = () => userEvent.setup();

describe('order default variant', () => {
  it("is the order card 'Order #{id}' with quantity, products and totals per currency", () => {
    mockFetch({});
    renderPage(<Variant module="ecommerce" entity="order" row={{ ...cart(2), variant: 'default' } as unknown as Expanded} />);
    const card = screen.getByRole('article', { name: 'Order #o-1' });
    expect(within(card).getByRole('heading').textContent).toBe('Order #o-1');
    expect(within(card).getByTestId('order-quantity').textContent).toBe('2');
    expect(within(card).getByTestId('order-total').textContent).toBe('$25 · ₽1980');
    expect(within(card).getByRole('link', { name: 'Book' }).getAttribute('href')).toBe('/ecommerce/products/book');
  });
});

describe('a checkout keeps the page language', () => {
  const widget: Expanded = { id: 'w-cart', variant: 'cart-default' };
  const answer = { status: 201, body: { data: { billingModule: { invoices: [{ id: 'i', paymentUrl: '/billing/dummy/checkout/i?token=t' }] } } } };

  it("the drawer's checkout sends the Russian page's language, so the payment returns to /ru/…", async () => {
    const calls = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(1)]), 'GET /api/billing/providers': PROVIDERS, [`POST ${SHOP}/orders/checkout`]: answer });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />, { language: 'ru' });
    fireEvent.click(await screen.findByRole('button', { name: 'Открыть корзину, товаров: 1' }));
    const drawer = await screen.findByRole('dialog', { name: 'Корзина' });
    await waitFor(() => expect((within(drawer).getByLabelText('Способ оплаты') as HTMLSelectElement).value).toBe('dummy'));
    fireEvent.click(within(drawer).getByRole('button', { name: /^Оформить заказ/ }));
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/billing/dummy/checkout/i?token=t'));
    expect(calls.find('POST', `${SHOP}/orders/checkout`)[0].data).toMatchObject({ language: 'ru', ecommerceModule: { orders: [{ id: 'o-1' }] } });
  });

  it('the one step checkout sends it too', async () => {
    const calls = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([]), 'GET /api/billing/providers': PROVIDERS, [`POST ${SHOP}/products/${book.id}/checkout`]: answer });
    renderPage(product('cart-default'), { language: 'ru' });
    fireEvent.click(await screen.findByRole('button', { name: 'Купить сейчас в один шаг' }));
    const button = await screen.findByRole('button', { name: /^Купить в один шаг/ });
    await waitFor(() => expect((screen.getByLabelText('Способ оплаты') as HTMLSelectElement).value).toBe('dummy'));
    fireEvent.click(button);
    await waitFor(() => expect(sandbox.go).toHaveBeenCalled());
    expect(calls.find('POST', `${SHOP}/products/${book.id}/checkout`)[0].data).toMatchObject({ language: 'ru', quantity: 1 });
  });
});

describe('a checked-out order shows the currency it was charged in', () => {
  const widget: Expanded = { id: 'w-orders', variant: 'order-list-default' };

  it('paid in RUB: the total and every line in rubles only; the cart still shows each currency', async () => {
    const paid: Order = { ...cart(2), id: 'o-9', status: 'approving', type: 'history', currency: rub, invoices: [{ id: 'i', status: 'paid', provider: 'dummy', amount: 1980, paymentUrl: null }] };
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([paid]) });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    const card = within(await screen.findByRole('list', { name: 'Orders' })).getByRole('article', { name: 'Order #o-9' });
    expect(within(card).getByTestId('order-total').textContent).toBe('₽1980');
    expect(within(card).getByText('₽990 each')).toBeTruthy();
    expect(within(card).getByText('₽1980', { selector: 'li span' })).toBeTruthy();
    expect(card.textContent).not.toContain('$');
    cleanup();

    // in dollars, the same order shows dollars only
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([{ ...paid, currency: usd }]) });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    const usdCard = within(await screen.findByRole('list', { name: 'Orders' })).getByRole('article', { name: 'Order #o-9' });
    expect(within(usdCard).getByTestId('order-total').textContent).toBe('$25');
    expect(usdCard.textContent).not.toContain('₽');
    cleanup();

    renderPage(<Variant module="ecommerce" entity="order" row={{ ...cart(2), variant: 'default' } as unknown as Expanded} />);
    expect(screen.getByTestId('order-total').textContent).toBe('$25 · ₽1980');
  });
});

describe('the quantity to add', () => {
  for (const typed of ['10001', '-2', '0', '1.5', '']) {
    it(`'${typed}' is refused beside the field: nothing is added, no success toast, the value stays`, async () => {
      const calls = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([]), [`POST ${SHOP}/orders`]: { status: 201, body: { data: cart(1) } } });
      renderPage(product('cart-default'));
      const u = user();
      const quantity = (await screen.findByLabelText('Quantity')) as HTMLInputElement;
      await u.clear(quantity);
      if (typed) await u.type(quantity, typed);
      // toasts of earlier tests may still be shown (sonner keeps them): none is added by this one
      const toasts = screen.queryAllByText('Updated successfully').length;
      await u.click(screen.getByRole('button', { name: 'Add to cart' }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe('Enter a whole number from 1 to 10,000');
      expect(quantity.getAttribute('aria-invalid')).toBe('true');
      expect(quantity.getAttribute('aria-describedby')).toBe(alert.id);
      await new Promise((r) => setTimeout(r, 50));
      expect(calls.find('POST', `${SHOP}/orders`)).toHaveLength(0);
      expect(screen.queryAllByText('Updated successfully')).toHaveLength(toasts);
      expect(quantity.value).toBe(typed);

      // a whole number in range clears the message and is added as typed
      await u.clear(quantity);
      await u.type(quantity, '10000');
      expect(screen.queryByRole('alert')).toBeNull();
      await u.click(screen.getByRole('button', { name: 'Add to cart' }));
      await waitFor(() => expect(calls.find('POST', `${SHOP}/orders`)[0]?.data).toEqual({ productId: book.id, quantity: 10000 }));
    });
  }

  it('says it in Russian on a Russian page, and the one step checkout refuses it too', async () => {
    const calls = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([]), 'GET /api/billing/providers': PROVIDERS });
    renderPage(product('cart-default'), { language: 'ru' });
    const u = user();
    const quantity = await screen.findByLabelText('Количество');
    await u.clear(quantity);
    await u.type(quantity, '10001');
    await u.click(screen.getByRole('button', { name: 'В корзину' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Введите целое число от 1 до 10\u00a0000');
    fireEvent.click(screen.getByRole('button', { name: 'Купить сейчас в один шаг' }));
    const button = await screen.findByRole('button', { name: /^Купить в один шаг/ });
    await waitFor(() => expect((screen.getByLabelText('Способ оплаты') as HTMLSelectElement).value).toBe('dummy'));
    fireEvent.click(button);
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Введите целое число от 1 до 10\u00a0000'));
    expect(calls.find('POST', `${SHOP}/products/${book.id}/checkout`)).toHaveLength(0);
    expect(sandbox.go).not.toHaveBeenCalled();
  });

  it('the stepper of a line in the cart grows with its number (5 digits do not run into +)', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(10000)]) });
    renderPage(product('cart-default'));
    const shown = await screen.findByLabelText('Quantity in the cart');
    expect(shown.textContent).toBe('10000');
    // no fixed width: a minimum, with room either side
    expect(shown.className.split(/\s+/).filter((c) => /^w-\d+$/.test(c))).toEqual([]);
    expect(shown.className).toMatch(/\bmin-w-\d+\b/);
    cleanup();
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(10000)]) });
    renderPage(<Variant module="ecommerce" entity="widget" row={{ id: 'w-cart', variant: 'cart-default' }} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open cart, 10000 items' }));
    const inCard = within(await screen.findByRole('dialog', { name: 'Cart' })).getByLabelText('Quantity of Book');
    expect(inCard.className.split(/\s+/).filter((c) => /^w-\d+$/.test(c))).toEqual([]);
    expect(inCard.className).toMatch(/\bmin-w-\d+\b/);
  });
});

describe('closing the cart drawer', () => {
  const widget: Expanded = { id: 'w-cart', variant: 'cart-default' };

  it('Escape gives the focus back to the cart button that opened it (keyboard: Tab, Enter, Escape)', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(1)]), 'GET /api/billing/providers': PROVIDERS });
    renderPage(<Variant module="ecommerce" entity="widget" row={widget} />);
    const u = user();
    const open = await screen.findByRole('button', { name: 'Open cart, 1 item' });
    await u.tab();
    expect(document.activeElement).toBe(open);
    await u.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: 'Cart' });
    await waitFor(() => expect(drawer.contains(document.activeElement)).toBe(true));
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(open));
  });

  it("the close button gives it back to the product's Checkout button", async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`GET ${SHOP}/orders`]: ok([cart(1)]), 'GET /api/billing/providers': PROVIDERS });
    renderPage(product('cart-default'));
    const u = user();
    const checkout = await screen.findByRole('button', { name: 'Checkout' });
    await u.click(checkout);
    const drawer = await screen.findByRole('dialog', { name: 'Cart' });
    await u.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(checkout));
  });
});
