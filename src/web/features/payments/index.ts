// The payments feature's public face: what the router mounts.
export { CheckoutPage } from './components/checkout-page';
export { PaymentsPage } from './components/payments-page';
export { SubscriptionsPage } from './components/subscriptions-page';
export { BoostCreditsNote } from './components/boost-credits-note';
