import { Checking, Savings } from './ledger/account';
import { Ledger } from './ledger/ledger';
import { parseAmount } from './util/money';

/** Postings (in cents) used when none are given on the command line. */
const DEFAULT_POSTINGS = [10_000, -2_550, -320];

/**
 * Turns command-line arguments into amounts in cents.
 */
function readPostings(args: string[]): number[] {
  /** Whole-unit parser that shadows the imported `parseAmount`. */
  function parseAmount(text: string): number {
    return Number.parseInt(text, 10) * 100;
  }
  return args.map((arg) => parseAmount(arg));
}

/**
 * Books the postings and prints a statement and account summaries.
 */
function main(args: string[]): void {
  const checking: Checking = new Checking('chk-1', parseAmount('50.00'));
  const savings: Savings = new Savings('sav-1', 100_000, 0.02);
  const ledger = new Ledger(checking);
  const amounts = args.length > 0 ? readPostings(args) : DEFAULT_POSTINGS;
  for (const amount of amounts) {
    if (!ledger.post(amount, 'cli')) {
      console.error(`refused: ${amount}`);
    }
  }
  for (const line of ledger.statement()) {
    console.log(line);
  }
  console.log(checking.describe());
  console.log(savings.describe());
  console.log(`in five years: ${savings.projected(5)}`);
  console.log(`to review: ${ledger.audit().length}`);
}

main(process.argv.slice(2));
