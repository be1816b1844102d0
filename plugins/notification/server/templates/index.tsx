import type { ReactElement } from 'react';
import { Action, Code, Email, Fields, Filled, P, TextBody } from './kit.js';
import { htmlToText } from './text.js';
import { mailWord, type MailWord } from './words.js';

/** what a template is given: the message's subject and text as the sender wrote them, its data, the site's address */
export interface TemplateProps {
  subject?: string;
  text?: string;
  data: Record<string, unknown>;
  publicUrl: string;
  /** the recipient's language (a configured one): the template's own words are in it; English when left out */
  language?: string;
}

/** a notification template: its subject line and its body, a React component rendered to the HTML email */
export interface Template {
  subject(p: TemplateProps): string;
  Body(p: TemplateProps & { subject: string }): ReactElement;
  /** the JSON Schema of the `data` it draws; a message sent with it through the API is held to it */
  data?: Record<string, unknown>;
  /** the module that alone sends it (its words speak for that module: a reset, a verification); not for topics */
  own?: string;
}

const text = { type: 'string', minLength: 1, maxLength: 2000 };
/** a data schema: these properties, the first `required` of them required, nothing else */
const dataOf = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, required, properties });

const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : v === undefined || v === null ? fallback : String(v));

/** a template that lays out the sender's own text, with a subject and a footer of the frame's words */
const textTemplate = (fallbackSubject: MailWord, footer: MailWord = 'footer'): Template => ({
  subject: (p) => p.subject || mailWord(fallbackSubject, p.language),
  Body: (p) => (
    <Email title={p.subject} footer={mailWord(footer, p.language)} lang={p.language}>
      <TextBody text={p.text ?? ''} />
    </Email>
  ),
});

/**
 * Every template, by the notification/template variant that names it. A module sends with `template` and
 * `data`; the notification module renders the HTML email, the plain text and the telegram message from it.
 */
export const templates: Record<string, Template> = {
  default: textTemplate('notification'),
  // each says once what to do with a mail nobody asked for: the reset mail in this footer, the verification mail in
  // the sender's own text (plugins/rbac/server)
  'reset-password': { ...textTemplate('resetSubject', 'resetFooter'), own: 'rbac' },
  'verify-email': { ...textTemplate('verifySubject'), own: 'rbac' },
  'account-changed': { ...textTemplate('accountChangedSubject'), own: 'rbac' },
  'crm-form-request': {
    data: dataOf({ formTitle: text, fields: { type: 'object' }, requestId: text, sourceUrl: { ...text, pattern: '^/' } }, ['formTitle', 'fields']),
    subject: (p) => p.subject || `New request: ${str(p.data.formTitle, 'a form')}`,
    Body: (p) => {
      const fields = Object.entries((p.data.fields ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
      const page = str(p.data.sourceUrl);
      return (
        <Email title={p.subject} preview={`A visitor sent the form "${str(p.data.formTitle, 'a form')}"`}>
          <P>A visitor sent the form "{str(p.data.formTitle, 'a form')}".</P>
          {fields.length ? <Fields rows={fields} /> : <P>(no fields)</P>}
          {page && <P>Page: {`${p.publicUrl}${page}`}</P>}
          <P>
            Request: <Code>{str(p.data.requestId)}</Code>
          </P>
          <Action href={`${p.publicUrl}/admin/crm/requests`}>Open the requests</Action>
        </Email>
      );
    },
  },
  'order-status-changed': {
    data: dataOf({ orderId: text, status: text, previousStatus: text, url: { ...text, pattern: '^https?://' }, forAdmin: { type: 'boolean' } }, ['orderId', 'status']),
    subject: (p) => p.subject || mailWord('orderSubject', p.language, { id: str(p.data.orderId).slice(0, 8), status: str(p.data.status) }),
    Body: (p) => (
      <Email title={p.subject} lang={p.language}>
        <P>
          <Filled
            text={mailWord(p.data.forAdmin === true ? 'orderNowAdmin' : 'orderNow', p.language)}
            nodes={{
              id: <Code>#{str(p.data.orderId)}</Code>,
              status: <strong>{str(p.data.status)}</strong>,
              was: p.data.previousStatus ? mailWord('orderWas', p.language, { status: str(p.data.previousStatus) }) : '',
            }}
          />
        </P>
        {p.text && <TextBody text={p.text} />}
        {typeof p.data.url === 'string' && p.data.url && <Action href={p.data.url}>{mailWord('seeOrder', p.language)}</Action>}
      </Email>
    ),
  },
  'agent-result': {
    data: dataOf({ agent: text, status: text, result: {}, error: text }, ['agent', 'status']),
    subject: (p) => p.subject || `Agent ${str(p.data.agent)}: ${str(p.data.status)}`,
    Body: (p) => (
      <Email title={p.subject}>
        <Fields
          rows={[
            ['agent', str(p.data.agent)],
            ['status', str(p.data.status)],
            ...(p.data.result !== undefined ? [['result', typeof p.data.result === 'string' ? p.data.result : JSON.stringify(p.data.result)] as [string, string]] : []),
            ...(p.data.error ? [['error', str(p.data.error)] as [string, string]] : []),
          ]}
        />
        {p.text && <TextBody text={p.text} />}
      </Email>
    ),
  },
};

export const TEMPLATE_VARIANTS = Object.keys(templates);
/** the templates a message sent through the API may name: every one but a module's own */
export const SENDABLE_TEMPLATES = TEMPLATE_VARIANTS.filter((v) => !templates[v].own);

/** a message rendered: subject line, HTML email and its plain-text part */
export async function renderTemplate(variant: string, props: TemplateProps): Promise<{ subject: string; html: string; text: string }> {
  const { renderToStaticMarkup } = await import('react-dom/server'); // on the first message, not at start
  const template = templates[variant] ?? templates.default;
  const subject = template.subject(props).slice(0, 250);
  const html = '<!doctype html>' + renderToStaticMarkup(<template.Body {...props} subject={subject} />);
  const body = htmlToText(html);
  // the title is the subject line; the text part starts after it
  const text = body.startsWith(subject) ? body.slice(subject.length).trimStart() : body;
  return { subject, html, text };
}
