import { describe, it, expect } from 'vitest';
import { renderTemplate, TEMPLATE_VARIANTS } from '../../plugins/notification/server/index.js';

const base = { publicUrl: 'https://shop.example.com' };

describe('notification templates: React components rendered to an HTML email and its plain text', async () => {
  it('every variant of the manifest has a template', async () => {
    const manifest = (await import('../../schemas/notification/template.json', { with: { type: 'json' } })).default as { variants: string[] };
    expect([...TEMPLATE_VARIANTS].sort()).toEqual([...manifest.variants].sort());
  });

  it('crm-form-request: the fields as a table in HTML and as "name: value" lines in text, values escaped', async () => {
    const r = await renderTemplate('crm-form-request', { ...base, data: { formTitle: 'Contact us', fields: { name: 'Ada <script>alert(1)</script>', email: 'ada@example.com' }, sourceUrl: '/contacts', requestId: 'r-1' } });
    expect(r.subject).toBe('New request: Contact us');
    expect(r.html).toMatch(/^<!doctype html><html/);
    expect(r.html).toContain('<th align="left"');
    expect(r.html).not.toContain('<script>alert(1)</script>');
    expect(r.html).toContain('&lt;script&gt;');
    expect(r.html).toContain('href="https://shop.example.com/admin/crm/requests"');
    expect(r.text).toContain('name: Ada <script>alert(1)</script>');
    expect(r.text).toContain('email: ada@example.com');
    expect(r.text).toContain('Page: https://shop.example.com/contacts');
    expect(r.text).toContain('Open the requests: https://shop.example.com/admin/crm/requests');
  });

  it('a text template keeps the sender\'s lines, makes its urls links, and keeps them as they are in text', async () => {
    const text = 'Open this link within an hour:\nhttps://shop.example.com/reset?code=a-b_c\n\nYour reset code: a-b_c';
    const r = await renderTemplate('reset-password', { ...base, subject: 'Reset your password', text, data: {} });
    expect(r.subject).toBe('Reset your password');
    expect(r.html).toContain('<a href="https://shop.example.com/reset?code=a-b_c"');
    expect(r.text.startsWith(text)).toBe(true);
    expect(r.text).toContain('If you did not ask for this');
  });

  it('order-status-changed and agent-result make their subject from their data; an unknown variant lays out the text', async () => {
    expect(await renderTemplate('order-status-changed', { ...base, data: { orderId: '0123456789', status: 'delivering', previousStatus: 'packaging' } })).toMatchObject({
      subject: 'Order #01234567: delivering',
      text: expect.stringContaining('is now delivering (was packaging)'),
    });
    // the buyer's mail says 'Your order', an admin's copy names the order
    expect((await renderTemplate('order-status-changed', { ...base, data: { orderId: '0123456789', status: 'delivering' } })).text).toContain('Your order #0123456789 is now delivering.');
    const admin = (await renderTemplate('order-status-changed', { ...base, data: { orderId: '0123456789', status: 'delivering', forAdmin: true } })).text;
    expect(admin).toContain('Order #0123456789 is now delivering.');
    expect(admin).not.toContain('Your order');
    expect((await renderTemplate('order-status-changed', { ...base, language: 'ru', data: { orderId: '1', status: 'x', forAdmin: true } })).text).toContain('Статус заказа #1: x.');
    expect((await renderTemplate('agent-result', { ...base, data: { agent: 'clear-old-orders', status: 'failed', error: 'boom' } })).text).toContain('error: boom');
    expect(await renderTemplate('no-such-variant', { ...base, subject: 'Hi', text: 'Plain', data: {} })).toMatchObject({ subject: 'Hi', text: expect.stringContaining('Plain') });
  });
});
