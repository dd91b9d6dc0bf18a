/** One line of an order as the checkout page, the success page and the e-mails show it. */
export interface OrderLine {
  name: string;
  amountCents: number;
  quantity: number;
  recurring: boolean;
}
