package com.example.report

import com.example.shop.Bundle
import com.example.shop.Item
import com.example.shop.Money as Cash
import com.example.shop.Size
import com.example.shop.doubled
import com.example.shop.price as cost
import com.example.util.*

/** Formats anything for a report. */
object Formats {
    /** The same name as Item.describe, on an object. */
    fun describe(x: Any): String = "* $x"
}

/** A report over some items. */
class Report(private val items: List<Item>) {
    /** Every item on its own line. */
    fun render(): String {
        val out = StringBuilder()
        for (item in items) {
            out.append(line(item.describe()))
        }
        return out.toString()
    }

    /** A method named like the imported `line`, which it hides inside the class. */
    fun line(text: String): String = text + "\n"
}

/** Factorial, recursively. */
fun fact(n: Int): Int = if (n <= 1) 1 else n * fact(n - 1)

/** Builds and prints a sample report. */
fun main() {
    val pen = Item.of("pen", 150)
    val kit = Bundle("kit", listOf(pen))
    val report = Report(listOf(pen, kit))
    println(report.render())
    println(line("total", cost(1.5, 3).toString()))
    val cash: Cash = Cash(250)
    println(cash.doubled().describe())
    println(Formats.describe(kit) + Size.LARGE.label())
    println(fact(5))
}
