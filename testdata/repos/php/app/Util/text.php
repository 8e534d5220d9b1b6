<?php

namespace App\Util;

/** One formatted line; Report::line shadows it inside the class. */
function line(string $text): string
{
    return "* " . trim($text);
}

/** Factorial, recursively. */
function fact(int $n): int
{
    return $n <= 1 ? 1 : $n * fact($n - 1);
}
