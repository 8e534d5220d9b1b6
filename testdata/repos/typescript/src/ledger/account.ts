import { Cents, format as formatMoney } from '../util/money';

/** The kinds of account the ledger supports. */
export enum AccountKind {
  Checking = 'checking',
  Savings = 'savings',
}

/** Common shape of every account. */
export interface Account {
  readonly id: string;
  readonly kind: AccountKind;
  /** Current balance in cents. */
  balance(): Cents;
  /** One-line description for reports. */
  describe(): string;
}

/** An everyday account that may be overdrawn down to a limit. */
export class Checking implements Account {
  readonly kind = AccountKind.Checking;
  private cents: Cents = 0;

  /**
   * @param id account identifier
   * @param overdraft how far below zero the balance may go
   */
  constructor(
    readonly id: string,
    private readonly overdraft: Cents = 0,
  ) {}

  /** Applies a signed amount unless it would exceed the overdraft. */
  apply(amount: Cents): boolean {
    if (this.cents + amount < -this.overdraft) {
      return false;
    }
    this.cents += amount;
    return true;
  }

  /** Current balance in cents. */
  balance(): Cents {
    return this.cents;
  }

  /** Describes the account and its balance. */
  describe(): string {
    return `checking ${this.id}: ${formatMoney(this.balance())}`;
  }
}

/** An interest-bearing account. */
export class Savings implements Account {
  readonly kind = AccountKind.Savings;

  constructor(readonly id: string, private cents: Cents, readonly rate: number) {}

  /** Current balance in cents. */
  balance(): Cents {
    return this.cents;
  }

  /** Balance after `years` of yearly compounding, in cents. */
  projected(years: number): Cents {
    return Math.round(compound(this.cents, this.rate, years));
  }

  /** Describes the account, its balance and its rate. */
  describe(): string {
    return `savings ${this.id}: ${formatMoney(this.balance())} at ${this.rate * 100}%`;
  }
}

/** Compounds `principal` yearly at `rate` for `years` years. */
export function compound(principal: number, rate: number, years: number): number {
  if (years <= 0) {
    return principal;
  }
  return compound(principal * (1 + rate), rate, years - 1);
}
