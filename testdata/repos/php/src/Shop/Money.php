<?php

namespace App\Shop;

/** Prices with tax. */
final class Money
{
    public const RATE = 0.2;

    /** The price of a quantity, tax included. */
    public static function price(float $unit, int $qty): float
    {
        return self::withVat($unit * $qty);
    }

    /** Adds VAT at RATE. */
    public static function withVat(float $amount): float
    {
        return round($amount * (1 + self::RATE), 2);
    }
}
