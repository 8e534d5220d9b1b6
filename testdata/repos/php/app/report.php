<?php

require_once __DIR__ . '/../src/Shop/Money.php';
require_once __DIR__ . '/../src/Shop/Item.php';
require_once __DIR__ . '/Util/text.php';

use App\Shop\{Bundle, Item};
use App\Shop\Money;
use function App\Util\line as fmtLine;

/** Prints a report of items. */
class Report
{
    private Item $first;

    public function __construct(private array $items)
    {
        $this->first = new Item("first", 1.0);
    }

    /** The class's own line, used instead of the function line. */
    public function line(Item $item): string
    {
        return "- " . $item->describe();
    }

    public function render(): string
    {
        $rows = array_map(fn ($i) => $this->line($i), $this->items);
        return implode("\n", $rows) . "\n" . $this->first->total();
    }

    /** Builds and prints a sample report. */
    public static function sample(): void
    {
        $pen = new Item("pen", 1.5);
        $kit = new Bundle("kit", $pen, new Item("ink", 2.0));
        echo fmtLine($pen->describe()), "\n";
        echo $kit->describe(), "\n";
        echo $kit->total(), "\n";
        echo (new Report([$pen]))->render(), "\n";
        echo \App\Util\fact(5), " ", Money::price(2.0, 3), "\n";
    }
}

Report::sample();
