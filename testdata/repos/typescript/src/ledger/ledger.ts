import * as dates from '../util/dates';
import { Cents, CURRENCY, format } from '../util/money';
import { Checking } from './account';

/** A single booked amount. */
export interface Posting {
  kind: 'posting';
  amount: Cents;
  memo: string;
}

/** Several postings booked together as one entry. */
export interface Split {
  kind: 'split';
  parts: Entry[];
}

/** A ledger entry: a single posting or a split of several. */
export type Entry = Posting | Split;

/** The list of entries booked against one checking account. */
export class Ledger {
  private entries: Entry[] = [];

  constructor(private readonly account: Checking) {}

  /** Books one amount; returns false when the account refuses it. */
  post(amount: Cents, memo: string): boolean {
    if (!this.account.apply(amount)) {
      return false;
    }
    const stamp = dates.format(new Date());
    this.entries.push({ kind: 'posting', amount, memo: `${stamp} ${memo}` });
    return true;
  }

  /** Sum of all entries, in cents. */
  total(): Cents {
    return this.entries.reduce((sum, e) => sum + entryTotal(e), 0);
  }

  /** One line per entry plus a closing total line. */
  statement(): string[] {
    const lines = this.entries.map((e) => format(entryTotal(e)));
    lines.push(`total ${format(this.total())} ${CURRENCY}`);
    return lines;
  }

  /** Memos of postings that need a manual review. */
  audit(): string[] {
    return Audit.largePostings(this.entries);
  }
}

/** Total of an entry, descending into splits. */
export function entryTotal(entry: Entry): Cents {
  return entry.kind === 'posting' ? entry.amount : splitTotal(entry);
}

/** Total of all parts of a split. */
function splitTotal(split: Split): Cents {
  return split.parts.reduce((sum, part) => sum + entryTotal(part), 0);
}

/** Review rules applied to booked entries. */
export namespace Audit {
  /** True when a posting is above the review threshold. */
  export function isLarge(posting: Posting): boolean {
    return Math.abs(posting.amount) >= 100_000;
  }

  /** Memos of all large top-level postings. */
  export function largePostings(entries: Entry[]): string[] {
    const memos: string[] = [];
    for (const entry of entries) {
      if (entry.kind === 'posting' && isLarge(entry)) {
        memos.push(entry.memo);
      }
    }
    return memos;
  }
}
