import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/**
 * A local stand-in for the Stripe HTTP API, driven through the real `stripe` package: the calls
 * this product makes, answered in Stripe's shapes, every request recorded.
 */
export async function startFakeStripe() {
  const requests: StripeRequest[] = [];
  /** Which invoice each payment intent paid, as Stripe's invoice_payments answer it. */
  const invoiceOfIntent = new Map<string, string>();
  let failNext = false;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const params = Object.fromEntries(new URLSearchParams(body));
      const record: StripeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        params,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        authorization: req.headers.authorization,
      };
      requests.push(record);
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${crypto.randomBytes(6).toString('hex')}` });
        res.end(JSON.stringify(payload));
      };
      if (failNext) {
        failNext = false;
        return send(400, { error: { type: 'invalid_request_error', message: 'Simulated failure' } });
      }
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_${crypto.randomBytes(12).toString('hex')}`;
        const metadata = Object.fromEntries(
          Object.entries(params)
            .filter(([k]) => k.startsWith('metadata['))
            .map(([k, v]) => [k.slice(9, -1), v]),
        );
        return send(200, {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          mode: params.mode,
          metadata,
          amount_total: Number(params['line_items[0][price_data][unit_amount]']),
          status: 'open',
          payment_status: 'unpaid',
        });
      }
      if (req.method === 'GET' && url.pathname === '/v1/invoice_payments') {
        const intent = url.searchParams.get('payment[payment_intent]') ?? '';
        const invoice = invoiceOfIntent.get(intent);
        const data = invoice
          ? [{ id: `inpay_${intent}`, object: 'invoice_payment', invoice, payment: { type: 'payment_intent', payment_intent: intent } }]
          : [];
        return send(200, { object: 'list', url: '/v1/invoice_payments', has_more: false, data });
      }
      const cancel = /^\/v1\/subscriptions\/([\w]+)$/.exec(url.pathname);
      if (req.method === 'DELETE' && cancel) return send(200, { id: cancel[1], object: 'subscription', status: 'canceled' });
      return send(404, { error: { type: 'invalid_request_error', message: `No fake for ${req.method} ${url.pathname}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Tells the fake that `paymentIntentId` paid `invoiceId` (a subscription invoice). */
    setInvoicePayment: (paymentIntentId: string, invoiceId: string) => void invoiceOfIntent.set(paymentIntentId, invoiceId),
    failNextRequest: () => {
      failNext = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
