<?php

namespace App\Shop;

use App\Shop\Money as Cash;

/** Something for sale. */
class Item
{
    public function __construct(protected string $name, protected float $unit)
    {
    }

    /** One line about the item. */
    public function describe(): string
    {
        return sprintf("%s at %.2f", $this->name, $this->total());
    }

    /** The price with tax, through the alias Cash. */
    public function total(): float
    {
        return Cash::price($this->unit, 1);
    }
}

/** Several items sold as one. */
class Bundle extends Item
{
    /** @var Item[] */
    private array $parts = [];

    public function __construct(string $name, Item ...$parts)
    {
        parent::__construct($name, 0.0);
        $this->parts = $parts;
    }

    /** The same name as Item::describe, on another type. */
    public function describe(): string
    {
        return "bundle of " . $this->count(count($this->parts));
    }

    /** Counts down, recursively; the builtin count() above is not this method. */
    public function count(int $n): int
    {
        return $n <= 0 ? 0 : 1 + $this->count($n - 1);
    }
}
