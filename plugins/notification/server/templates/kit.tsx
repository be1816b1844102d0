import { Fragment, type ReactNode } from 'react';

/**
 * The building blocks of every email: a table layout with inline styles (what mail clients draw), and markup
 * simple enough that the plain-text part is derived from it (text.ts).
 */
export function Email({ title, preview, children, footer, lang = 'en' }: { title: string; preview?: string; children: ReactNode; footer?: ReactNode; lang?: string }) {
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: '#f1f5f9', fontFamily: 'Inter, Helvetica, Arial, sans-serif', color: '#0f172a' }}>
        {preview && <div style={{ display: 'none', maxHeight: 0, overflow: 'hidden' }} data-preview="">{preview}</div>}
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ background: '#f1f5f9', padding: '24px 0' }}>
          <tbody>
            <tr>
              <td align="center">
                <table role="presentation" width="560" cellPadding={0} cellSpacing={0} style={{ maxWidth: 560, width: '100%', background: '#ffffff', borderRadius: 8, padding: 32 }}>
                  <tbody>
                    <tr>
                      <td>
                        <h1 style={{ fontSize: 20, lineHeight: '28px', margin: '0 0 16px' }}>{title}</h1>
                        {children}
                        {footer && <p style={{ fontSize: 12, lineHeight: '18px', color: '#64748b', margin: '24px 0 0' }}>{footer}</p>}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

export const P = ({ children }: { children: ReactNode }) => <p style={{ fontSize: 15, lineHeight: '22px', margin: '0 0 12px' }}>{children}</p>;

/** a call to action: a button in HTML, 'label: url' in text */
export const Action = ({ href, children }: { href: string; children: ReactNode }) => (
  <p style={{ margin: '16px 0' }}>
    <a href={href} style={{ display: 'inline-block', background: '#2563eb', color: '#ffffff', padding: '10px 18px', borderRadius: 6, textDecoration: 'none', fontWeight: 600 }}>
      {children}
    </a>
  </p>
);

export const Code = ({ children }: { children: ReactNode }) => (
  <code style={{ fontFamily: 'ui-monospace, Menlo, monospace', background: '#f1f5f9', padding: '2px 6px', borderRadius: 4 }}>{children}</code>
);

/** name and value rows ('name: value' in text) */
export function Fields({ rows }: { rows: [string, string][] }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ width: '100%', borderCollapse: 'collapse', margin: '0 0 12px', fontSize: 14 }}>
      <tbody>
        {rows.map(([name, value], i) => (
          <tr key={i}>
            <th align="left" style={{ padding: '6px 12px 6px 0', verticalAlign: 'top', color: '#475569', fontWeight: 600, whiteSpace: 'nowrap' }}>{name}</th>
            <td style={{ padding: '6px 0', whiteSpace: 'pre-wrap' }}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** a text with {name} placeholders, each drawn as the node given for it ('Your order {id} is now {status}.') */
export function Filled({ text, nodes }: { text: string; nodes: Record<string, ReactNode> }) {
  return (
    <>
      {text.split(/\{(\w+)\}/).map((part, i) => (
        <Fragment key={i}>{i % 2 ? (Object.hasOwn(nodes, part) ? nodes[part] : `{${part}}`) : part}</Fragment>
      ))}
    </>
  );
}

const URL_RE = /(https?:\/\/[^\s<>"]+)/g;

/** plain text as paragraphs (blank lines), lines kept, urls made links */
export function TextBody({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n{2,}/).map((para, i) => (
        <P key={i}>
          {para.split('\n').map((line, j) => (
            <span key={j}>
              {j > 0 && <br />}
              {line.split(URL_RE).map((part, k) => (k % 2 ? <a key={k} href={part} style={{ color: '#2563eb' }}>{part}</a> : part))}
            </span>
          ))}
        </P>
      ))}
    </>
  );
}
