package com.example.util

/** The width labels are padded to. */
const val WIDTH = 12

/** A label and a value on one line. */
fun line(label: String, value: String): String = pad(label) + value

/** Pads [s] to [WIDTH] characters. */
private fun pad(s: String): String = s.padEnd(WIDTH)
